"""The front ends: the `typeinf` command (`cli`, `streams`, `explain`, `docs_pages`,
`json_report`), IR snapshot files (`snapshots`), the pytest plugin that keeps them
(`pytest_plugin`), and an error as the command prints it, for the API (`rendering`:
`typeinf.render`).
"""
