"""The engine both dialects share: type terms as union-find cells (`terms`), the constructor
descriptor and the constructors the engine reads types by (`constructors`), the one unifier
(`unify`), constraints with their reasons (`constraints`), the solver (`solve`: each dialect's
solver words its errors), relations that unification cannot say (`relations`), schemes and the
code generated for their instantiation (`schemes`, `codegen`), the one driver (`driver`), the
printer both notations are made of (`notation`), what both dialects' readers share
(`typetokens`, `cellbuilder`), what both dialects' public values share (`values`), the errors
and the engine's own words (`errors`, `messages`), and what both dialects say alike
(`diagnostics`). Each dialect's type language (constructors, notation, reader, values,
conversions, words) is in its package (`typeinf.fencil`, `typeinf.gtir`).
docs/architecture.md draws how the parts fit.
"""
