"""Re-inference in proportion to an edit, for both dialects: `reinference.Reinference` keeps
what the last run learnt; `definition_reuse` says which definitions an edit touched;
`part_trees` and `part_layout` number and lay out the parts typed again; `gtir` does it for a
GTIR `Program`.
"""
