"""The front ends: the `typeinf` command (`cli`, `streams`, `explain`, `docs_pages`), IR
snapshot files (`snapshots`) and the pytest plugin that keeps them (`pytest_plugin`).
"""
