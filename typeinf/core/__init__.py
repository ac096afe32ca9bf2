"""The engine both dialects share: type terms as union-find cells (`terms`), the constructors'
table (`constructors`), the one unifier (`unify`), constraints with their reasons
(`constraints`), the solver (`solve`: each dialect's solver words its errors), relations that
unification cannot say (`relations`), schemes and the code generated for their instantiation
(`schemes`, `codegen`), the one driver (`driver`), the notation's printer (`notation`), what
both dialects' readers share (`typetokens`, `typesyntax`, `cellbuilder`), the public values
(`convert`), the errors and the engine's own words (`errors`, `messages`), and what both
dialects say alike (`diagnostics`). Each dialect's own reader, signatures and words are in its
package (`typeinf.fencil`, `typeinf.gtir`). docs/architecture.md draws how the parts fit.
"""
