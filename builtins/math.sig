# Mathematical functions (located notation). Family restrictions are kept and enforced:
# `sqrt(1)` is an error (GT4Py 1.0.3 loses the restriction and accepts it).
power       :: (T₀¹, T₂¹) → T₀¹ where T₀: numeric, T₂: numeric
abs         :: (T₀¹) → T₀¹ where T₀: numeric
sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh sqrt exp log gamma
  cbrt floor ceil trunc
            :: (T₀¹) → T₀¹ where T₀: float
isfinite isinf isnan
            :: (T₀¹) → bool¹ where T₀: float
