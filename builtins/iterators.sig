# Builtins on iterators (located notation).
deref       :: (It[T₂, T₂, T₀¹]) → T₀¹
can_deref   :: (It[T₂, T₃, T₀¹]) → bool¹
lift        :: ((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]
scan        :: ((T₀ˢ):(It[T₂, …₃, Tˢ], …)₁ → T₀ˢ, boolˢ, T₀ˢ) → (It[T₂, …₃, Tᶜ], …)₁ → T₀ᶜ
