"""Tests of remit.reports: the report model, its formats and the approval trail."""
