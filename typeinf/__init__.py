"""Type inference for GT4Py's iterator IR. The inferencer itself is being built (issue 3); the
command line already reads and prints IR."""
