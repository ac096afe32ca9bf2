"""The front ends: the `typeinf` command (`cli`, `streams`, `explain`, `docs_pages`,
`json_report`, and `gtir_report`, what it reports of a GTIR inference), IR snapshot files
(`snapshots`), the pytest plugin that keeps them (`pytest_plugin`), and for the API an error
as the command prints it (`rendering`: `typeinf.render`) and GT4Py's `str()` of its types, as
`--json` gives it (`gt4py_text`: `typeinf.gt4py_str`).
"""
