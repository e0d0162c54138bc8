"""Tests of custom components, as Home Assistant lays them out."""
