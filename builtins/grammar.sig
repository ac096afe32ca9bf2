# Builtins that are part of the grammar: typed by rule (docs/rules.md), because their type
# depends on literal arguments or on the offset provider. Allowed only in call position.
make_tuple tuple_get shift neighbors cast_ cartesian_domain unstructured_domain :: rule
# Type names: only the second argument of `cast_`.
bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 :: dtype
