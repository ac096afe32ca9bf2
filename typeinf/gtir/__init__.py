"""GTIR (what GT4Py 1.2 compiles, docs/gtir.md): its types as terms of the core (`terms`), its
builtins' signatures and relations (`rules`), relations on dimension sets (`relations`), the
collector (`collect`) with its rules by construct (`expressions`, `calls`, `fieldops`,
`iterators`, `tuples`), the run behind `typeinf.infer` (`infer`), its notation and reader, its
public values, GT4Py's structured types, and the report of `typeinf infer --json`.
"""
