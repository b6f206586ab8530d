"""Shared helpers for the tests, and no tests of their own: live servers and sockets, rooms
driven over the API, tables rendered in process, browsers, games' worlds and scenarios. Test
modules import helpers from here (or fixtures from conftest), never from one another;
tests/test_conventions.py holds them to that."""
