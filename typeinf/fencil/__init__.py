"""The fencil IR (GT4Py 1.0.3's iterator IR): its collector (`collect`), the grammar builtins
typed by a rule (`rules`) or once the shape of their use is known (`shaped`), the fast and the explaining run
(`runs`), and the hint for a stencil input used as a value (`stencil_inputs`).
"""
