# Arithmetic, comparison and logic on values of one size (located notation).
if_         :: (bool⁰, T₁, T₁) → T₁
not_        :: (bool⁰) → bool⁰
and_ or_ xor_ :: (bool⁰, bool⁰) → bool⁰
plus minus multiplies divides mod floordiv minimum maximum fmod
            :: (T₀¹, T₀¹) → T₀¹ where T₀: numeric
eq not_eq   :: (T₀¹, T₀¹) → bool¹
less greater less_equal greater_equal
            :: (T₀¹, T₀¹) → bool¹ where T₀: numeric
