"""The core both dialects share: type terms as union-find cells (`terms`), the constructors'
table (`constructors`), the one unifier (`unify`), constraints with their reasons
(`constraints`), the solver (`solve`), relations that unification cannot say (`relations`),
schemes and the code generated for their instantiation (`schemes`, `codegen`), the notation
and its reader (`notation`, `reader`), the public values (`convert`), and the errors and what both
dialects say alike (`errors`, `diagnostics`). docs/architecture.md draws how the parts fit.
"""
