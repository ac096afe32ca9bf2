"""The fencil IR (GT4Py 1.0.3's iterator IR): its collector and its solver (`collect`), the
grammar builtins typed by a rule (`rules`) or once the shape of their use is known (`shaped`),
the fast and the explaining run (`runs`), its errors: a failed constraint or relation made one
(`conflicts`), in words (`messages`), and the hint for a stencil input used as a value
(`stencil_inputs`). Its type language: the constructors' table (`constructors`), the notation
printed (`notation`) and read (`reader`), the public values (`values`) and their conversion
from and to cells (`convert`).
"""
