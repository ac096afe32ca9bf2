"""The public type values (docs/api.md): what `typeinf.infer`, `infer_all`, `check` and
`parse_type` return, by their public names.

The fencil IR's values are `typeinf.fencil.values`'; the machinery every dialect's values share
(the base class `Type`, the variable `Var`, values made on demand, the JSON tree) is
`typeinf.core.values`'. GTIR's values derive from the same `Type` and `Var`
(`typeinf.gtir`, docs/gtir.md). This module is their public face: it names them and holds
nothing of its own.
"""

from __future__ import annotations

from typeinf.core.values import FillError as FillError
from typeinf.core.values import OnDemand as OnDemand
from typeinf.core.values import Type as Type
from typeinf.core.values import Var as Var
from typeinf.core.values import adopt as adopt
from typeinf.core.values import fast_maker as fast_maker
from typeinf.core.values import made as made
from typeinf.core.values import on_demand as on_demand
from typeinf.core.values import tree as tree
from typeinf.core.values import value_class as value_class
from typeinf.fencil.values import Closure as Closure
from typeinf.fencil.values import Constructed as Constructed
from typeinf.fencil.values import Definition as Definition
from typeinf.fencil.values import Dtype as Dtype
from typeinf.fencil.values import Fencil as Fencil
from typeinf.fencil.values import FencilValue as FencilValue
from typeinf.fencil.values import Fun as Fun
from typeinf.fencil.values import Inferred as Inferred
from typeinf.fencil.values import List as List
from typeinf.fencil.values import ListRow as ListRow
from typeinf.fencil.values import Relation as Relation
from typeinf.fencil.values import Tail as Tail
from typeinf.fencil.values import Tuple as Tuple
from typeinf.fencil.values import TypeValue as TypeValue
from typeinf.fencil.values import Val as Val
from typeinf.fencil.values import ValRow as ValRow
