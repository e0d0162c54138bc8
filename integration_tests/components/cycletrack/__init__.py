"""Tests of the cycletrack integration."""
