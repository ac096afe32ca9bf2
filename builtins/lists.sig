# Builtins on neighbor lists (located notation). `map_` keeps its inputs' length and skip flag.
reduce          :: ((T₀¹):(T¹, …)₂ → T₀¹, T₀¹) → (L[…₂, T₅, T₆]¹, …) → T₀¹
map_            :: ((T¹, …)₀ → T₄¹) → (L[…₀, T₅, T₆]¹, …) → L[T₄, T₅, T₆]¹
make_const_list :: (T₀¹) → L[T₀, T₂, T₃]¹
list_get        :: (T₀ˢ, L[T₁, T₂, T₃]⁴) → T₁⁴ where T₀: integer
