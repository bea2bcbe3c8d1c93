"""What comes back from the subject: handles become proxies, stand-ins become the check's objects."""

from __future__ import annotations

import types
import weakref
from typing import Any

import jax

from grader.engine.remote.codec import Decoder, WireError
from grader.engine.remote.examiner.proxies import EscapedTracer, NodeInfo, RemoteClass, RemoteNode, RemoteObject
from grader.engine.remote.examiner.shipping import EMPTY, dataclass_fields
from grader.engine.remote.protocol import hashable


class Incoming:
    """The receiving half of a Session: what it reads of the session's state, the session sets up."""

    generation: int
    shipped: dict[Any, Any]
    proxies: dict[int, RemoteObject]
    array_handles: dict[int, tuple]
    node_types: dict[int, type]

    def decode(self, answer: bytes, memo: dict[int, Any]) -> Any:
        """The subject's answer to a request whose objects sent by reference are `memo` (by index)."""
        return Decoder.loads(answer, lambda tag, d: self._resolve(tag, d, memo), on_array=self._note_array)

    # --- what comes back --------------------------------------------------------------------------------

    def _resolve(self, tag: list, d: Decoder, memo: dict[int, Any]) -> Any:
        kind = tag[0]
        if kind == "H":
            info = dict(tag[2]) if len(tag) > 2 else {}
            if d.in_program:
                info["internal"] = True  # a rule or callback JAX keeps in a program, not an exercise function
            return self.proxy(int(tag[1]), info)
        if kind == "req":
            if int(tag[1]) not in memo:
                raise WireError("a reference to nothing that was sent")
            return memo[int(tag[1])]
        if kind == "ref":
            if int(tag[1]) not in self.shipped:
                raise WireError("a reference to nothing that was shipped")
            return self.shipped[int(tag[1])]
        if kind == "node":
            return self._node(tag, d)
        if kind == "tdn":
            return self._node_treedef(tag, d)
        if kind == "leak":
            return EscapedTracer(str(tag[1]), d.decode(tag[2]) if len(tag) > 2 else None)
        if kind == "cnode":
            return self._rebuild_check_node(tag, d)
        if kind == "cdcnew":
            node_type = self.shipped.get(int(tag[2]))
            if not isinstance(node_type, type):
                raise WireError("a stand-in for a class the check never sent")
            obj = object.__new__(node_type)
            d.keep(tag[1], obj)
            for name, value in d.decode(tag[3]).items():
                object.__setattr__(obj, str(name), value)
            return obj
        if kind == "cdctd":
            from jax._src import tree_util

            node_type = self.shipped.get(int(tag[1]))
            fields = dataclass_fields(node_type) if isinstance(node_type, type) else None
            if fields is not None:
                meta_values = d.decode(tag[2])
                aux = tuple(meta_values[name] for name in fields[1])
            elif (int(tag[1]), "aux") in self.shipped:
                aux = self.shipped[int(tag[1]), "aux"]
            else:
                raise WireError("a stand-in for a class the check never sent")
            return jax.tree_util.PyTreeDef.from_node_data_and_children(
                tree_util.default_registry, (node_type, aux), d.items(tag[3]))
        if kind == "ctdn":
            from jax._src import tree_util

            node_type, aux = self.shipped.get(int(tag[1])), self.shipped.get(int(tag[2]), EMPTY)
            if not isinstance(node_type, type) or aux is EMPTY:
                raise WireError("a stand-in for a class the check never sent")
            return jax.tree_util.PyTreeDef.from_node_data_and_children(
                tree_util.default_registry, (node_type, aux), d.items(tag[3]))
        raise WireError(f"unknown tag {kind!r}")

    def _rebuild_check_node(self, tag: list, d: Decoder) -> Any:
        from jax._src import tree_util

        info = tag[2]
        kind, aux = self.shipped.get(int(info["type"])), self.shipped.get(int(info["aux"]), EMPTY)
        if not isinstance(kind, type) or aux is EMPTY:
            raise WireError("a stand-in for a class the check never sent")
        children = d.items(info["children"])
        tree = jax.tree_util.PyTreeDef.from_node_data_and_children(
            tree_util.default_registry, (kind, aux), [jax.tree.structure(0)] * len(children))
        return d.keep(tag[1], jax.tree.unflatten(tree, children))

    def _note_array(self, array: jax.Array, fields: dict) -> jax.Array | None:
        """The subject's array `fields["h"]` is the array already here that stands for it, if there is
        one (so the same object comes back as the same object), else `array`, remembered."""
        if "h" not in fields:
            return None
        hid = int(fields["h"])
        for known in self.arrays_of(hid):
            if not known.is_deleted():
                return known
        self.remember_array(array, hid)
        return None

    def remember_array(self, array: jax.Array, hid: int) -> None:
        """`array` here is the subject's object `hid`: sent back, it is that object again (donation,
        deletion and buffer identity follow it)."""
        key = id(array)
        self.array_handles[key] = (weakref.ref(array, lambda _: self.array_handles.pop(key, None)), hid,
                                   self.generation)

    def arrays_of(self, hid: int) -> list[jax.Array]:
        """The arrays here that stand for the subject's array `hid`."""
        found = []
        for ref, known, generation in list(self.array_handles.values()):
            array = ref()
            if array is not None and known == hid and generation == self.generation:
                found.append(array)
        return found

    def proxy(self, hid: int, info: dict) -> RemoteObject:
        found = self.proxies.get(hid)
        if found is None:
            kind = RemoteClass if info.get("class") else RemoteObject
            found = kind(self, hid, info)
            self.proxies[hid] = found
        return found

    def _node(self, tag: list, d: Decoder) -> RemoteNode:
        info = tag[2]
        kind = d.decode(info["type"])
        aux = d.decode(info["aux"])
        keys = [tuple(k) for k in info["keys"]]
        node_info = NodeInfo(self.node_type(kind, keys, bool(info.get("sequence"))), kind._hid,
                             int(info["aux_handle"]), hashable(aux), int(info["obj"]))
        if issubclass(node_info.kind, tuple):  # a tuple's items are fixed when it is made
            node = RemoteNode._make(node_info, d.items(info["children"]))
            d.keep(tag[1], node)
        else:
            node = RemoteNode._make(node_info, [])
            d.keep(tag[1], node)
            object.__setattr__(node, "_children", d.items(info["children"]))
        object.__setattr__(node, "_origin", (int(info["obj"]), self.generation))
        object.__setattr__(node, "_pristine", True)
        return node

    def node_type(self, kind: RemoteClass, keys: list[tuple], sequence: bool) -> type:
        """The stand-in class for one of the submission's pytree classes (registered with JAX here)."""
        found = self.node_types.get(kind._hid)
        if found is None or found._generation != self.generation:
            # A tuple class (a NamedTuple) stands in as a tuple, so `isinstance(x, tuple)` and unpacking hold.
            bases = (tuple, RemoteNode) if sequence else (RemoteNode,)
            found = types.new_class(kind._info.get("name") or "Node", bases, {})
            found._generation = self.generation
            found._remote_class = kind
            found._keys = keys
            found._sequence = sequence
            jax.tree_util.register_pytree_with_keys(found, RemoteNode._flatten_with_keys, found._unflatten,
                                                    RemoteNode._flatten)
            self.node_types[kind._hid] = found
        elif keys and not found._keys:
            found._keys = keys
        return found

    def _node_treedef(self, tag: list, d: Decoder) -> Any:
        """A treedef node of one of the submission's classes (a traced call's output structure)."""
        from jax._src import tree_util

        kind = d.decode(tag[1])
        aux = d.decode(tag[2])
        children = d.items(tag[4])
        info = NodeInfo(self.node_type(kind, [], bool(kind._info.get("tuple"))), kind._hid, int(tag[3]),
                        hashable(aux), tag[5] if len(tag) > 5 else None)
        return jax.tree_util.PyTreeDef.from_node_data_and_children(tree_util.default_registry, (info.kind, info),
                                                                   children)


