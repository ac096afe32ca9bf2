# Ranges and domains (located notation).
named_range :: (axisˢ, T₀ˢ, T₀ˢ) → named_rangeˢ where T₀: integer
