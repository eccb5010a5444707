"""The .proto grammar: :class:`Parser` turns a file's tokens into a
``FileDescriptorProto`` (what :mod:`kafkawire.registry.proto_text` covers and does not, in its
docstring), leaving the type names it meets to resolve once every declaration is known
(``Parser.pending``)."""

from __future__ import annotations

from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import FieldDescriptor

from kafkawire.registry.errors import SchemaError
from kafkawire.registry.proto_tokens import (
    Tok,
    c_escape,
    dtoa,
    entry_name,
    json_name,
    show,
    tokenize,
)

FDP = descriptor_pb2.FieldDescriptorProto

_SCALARS = {
    "double": FDP.TYPE_DOUBLE,
    "float": FDP.TYPE_FLOAT,
    "int64": FDP.TYPE_INT64,
    "uint64": FDP.TYPE_UINT64,
    "int32": FDP.TYPE_INT32,
    "fixed64": FDP.TYPE_FIXED64,
    "fixed32": FDP.TYPE_FIXED32,
    "bool": FDP.TYPE_BOOL,
    "string": FDP.TYPE_STRING,
    "bytes": FDP.TYPE_BYTES,
    "uint32": FDP.TYPE_UINT32,
    "sfixed32": FDP.TYPE_SFIXED32,
    "sfixed64": FDP.TYPE_SFIXED64,
    "sint32": FDP.TYPE_SINT32,
    "sint64": FDP.TYPE_SINT64,
}
_LABELS = {
    "optional": FDP.LABEL_OPTIONAL,
    "required": FDP.LABEL_REQUIRED,
    "repeated": FDP.LABEL_REPEATED,
}
_MAX_FIELD = 536870911
_EDITIONS = {"2023": descriptor_pb2.EDITION_2023, "2024": descriptor_pb2.EDITION_2024}


class Parser:
    def __init__(self, text: str, name: str):
        self.name = name
        self.text = text
        self.toks = tokenize(text, name)
        self.i = 0
        self.file = descriptor_pb2.FileDescriptorProto(name=name)
        self.syntax = "proto2"
        # (field or method proto, attribute, the name as written, scope, token): resolved
        # once every declaration is known
        self.pending: list[tuple] = []

    # -- token helpers -------------------------------------------------------------------

    def peek(self, k: int = 0) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Tok:
        t = self.toks[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def error(self, msg: str, tok: Tok | None = None) -> SchemaError:
        tok = tok or self.peek()
        return SchemaError(f"{self.name}:{tok.line}:{tok.col}: {msg}")

    def is_sym(self, s: str, k: int = 0) -> bool:
        t = self.peek(k)
        return t.kind == "sym" and t.value == s

    def is_word(self, w: str, k: int = 0) -> bool:
        t = self.peek(k)
        return t.kind == "ident" and t.value == w

    def accept(self, s: str) -> bool:
        if self.is_sym(s):
            self.i += 1
            return True
        return False

    def expect(self, s: str) -> Tok:
        t = self.peek()
        if not (t.kind == "sym" and t.value == s):
            raise self.error(f"expected {s!r}, found {show(t)}")
        return self.next()

    def ident(self, what: str = "a name") -> str:
        t = self.peek()
        if t.kind != "ident":
            raise self.error(f"expected {what}, found {show(t)}")
        self.next()
        return t.value

    def full_ident(self, what: str = "a name") -> str:
        parts = [self.ident(what)]
        while self.accept("."):
            parts.append(self.ident(what))
        return ".".join(parts)

    def type_name(self) -> str:
        lead = "." if self.accept(".") else ""
        return lead + self.full_ident("a type name")

    def string(self) -> bytes:
        t = self.peek()
        if t.kind != "str":
            raise self.error(f"expected a string, found {show(t)}")
        out = b""
        while self.peek().kind == "str":
            out += self.next().value
        return out

    def integer(self, what: str = "an integer") -> int:
        neg = self.accept("-")
        if not neg:
            self.accept("+")
        t = self.peek()
        if t.kind != "int":
            raise self.error(f"expected {what}, found {show(t)}")
        self.next()
        return -t.value if neg else t.value

    def end(self) -> None:
        self.expect(";")

    # -- constants and options -----------------------------------------------------------

    def constant(self):
        """A constant: ("ident", name) | ("num", int or float) | ("str", bytes) |
        ("aggregate", text)."""
        t = self.peek()
        if t.kind == "str":
            return ("str", self.string())
        if t.kind == "sym" and t.value == "{":
            return ("aggregate", self.aggregate())
        sign = 1
        if self.accept("-"):
            sign = -1
        elif self.accept("+"):
            pass
        t = self.peek()
        if t.kind in ("int", "float"):
            self.next()
            return ("num", sign * t.value)
        if t.kind == "ident":
            self.next()
            if t.value in ("inf", "infinity"):
                return ("num", sign * float("inf"))
            if t.value == "nan":
                return ("num", float("nan"))
            if sign < 0:
                raise self.error(f"'-' before {t.value!r}", t)
            name = t.value
            while self.accept("."):
                name += "." + self.ident()
            return ("ident", name)
        raise self.error(f"expected a constant, found {show(t)}")

    def aggregate(self) -> str:
        start = self.expect("{")
        depth = 1
        while depth:
            t = self.next()
            if t.kind == "eof":
                raise self.error("an option's { ... } value is never closed", start)
            if t.kind == "sym" and t.value == "{":
                depth += 1
            elif t.kind == "sym" and t.value == "}":
                depth -= 1
        return ""

    def option_name(self) -> tuple[list[str], bool]:
        """The option's name parts, and whether it is a custom (extension) option."""
        parts: list[str] = []
        custom = False
        while True:
            if self.accept("("):
                custom = True
                lead = "." if self.accept(".") else ""
                parts.append("(" + lead + self.full_ident() + ")")
                self.expect(")")
            else:
                parts.append(self.ident("an option name"))
            if not self.accept("."):
                return parts, custom

    def option_statement(self, options) -> None:
        """``option name = value;`` (the keyword is consumed)."""
        tok = self.peek()
        parts, custom = self.option_name()
        self.expect("=")
        value = self.constant()
        self.end()
        if custom:
            options.SetInParent()  # protoc keeps the options message, with the extension
        else:
            self.set_option(options, parts, value, tok)

    def set_option(self, options, parts: list[str], value, tok: Tok) -> None:
        """Sets a plain option on the options message; unknown names are skipped."""
        msg = options
        for k, part in enumerate(parts):
            fd = msg.DESCRIPTOR.fields_by_name.get(part)
            if fd is None:
                return
            if k < len(parts) - 1:
                if fd.type != FieldDescriptor.TYPE_MESSAGE or fd.is_repeated:
                    return
                msg = getattr(msg, part)
                continue
            kind, v = value
            if fd.is_repeated or kind == "aggregate":
                return
            try:
                if fd.type == FieldDescriptor.TYPE_BOOL:
                    if kind != "ident" or v not in ("true", "false"):
                        raise self.error(f"option {part} takes true or false", tok)
                    setattr(msg, part, v == "true")
                elif fd.type == FieldDescriptor.TYPE_ENUM:
                    if kind != "ident" or v not in fd.enum_type.values_by_name:
                        raise self.error(f"option {part} takes a {fd.enum_type.name} value", tok)
                    setattr(msg, part, fd.enum_type.values_by_name[v].number)
                elif fd.type == FieldDescriptor.TYPE_STRING:
                    if kind != "str":
                        raise self.error(f"option {part} takes a string", tok)
                    setattr(msg, part, v.decode("utf-8"))
                elif fd.type == FieldDescriptor.TYPE_BYTES:
                    setattr(msg, part, v if kind == "str" else str(v).encode())
                elif fd.type in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
                    if kind != "num":
                        raise self.error(f"option {part} takes a number", tok)
                    setattr(msg, part, float(v))
                elif fd.type != FieldDescriptor.TYPE_MESSAGE:
                    if kind != "num" or not isinstance(v, int):
                        raise self.error(f"option {part} takes an integer", tok)
                    setattr(msg, part, v)
            except (ValueError, TypeError) as exc:
                raise self.error(f"option {part}: {exc}", tok) from exc

    def field_options(self, field) -> None:
        """``[name = value, ...]`` after a field (the '[' is next)."""
        self.expect("[")
        while True:
            tok = self.peek()
            parts, custom = self.option_name()
            self.expect("=")
            if not custom and parts == ["default"]:
                self.default_value(field, tok)
            else:
                value = self.constant()
                if custom:
                    field.options.SetInParent()
                elif parts == ["json_name"]:
                    if value[0] != "str":
                        raise self.error("json_name takes a string", tok)
                    field.json_name = value[1].decode("utf-8")
                else:
                    self.set_option(field.options, parts, value, tok)
            if self.accept("]"):
                break
            self.expect(",")

    def default_value(self, field, tok: Tok) -> None:
        t = field.type if field.HasField("type") else 0
        if field.label == FDP.LABEL_REPEATED:
            raise self.error("a repeated field has no default", tok)
        if t == FDP.TYPE_MESSAGE:
            raise self.error("a message field has no default", tok)
        value = self.constant()
        kind, v = value
        if not t:  # a named type, resolved later: an enum's default is an identifier
            if kind != "ident":
                raise self.error("a default of a named type is an enum value name", tok)
            field.default_value = v
        elif t == FDP.TYPE_STRING:
            if kind != "str":
                raise self.error("a string field's default is a string", tok)
            field.default_value = v.decode("utf-8")
        elif t == FDP.TYPE_BYTES:
            if kind != "str":
                raise self.error("a bytes field's default is a string", tok)
            field.default_value = c_escape(v)
        elif t == FDP.TYPE_BOOL:
            if kind != "ident" or v not in ("true", "false"):
                raise self.error("a bool field's default is true or false", tok)
            field.default_value = v
        elif t in (FDP.TYPE_FLOAT, FDP.TYPE_DOUBLE):
            if kind != "num":
                raise self.error("a float field's default is a number", tok)
            field.default_value = dtoa(float(v))
        else:
            if kind != "num" or not isinstance(v, int):
                raise self.error("an integer field's default is an integer", tok)
            field.default_value = str(v)

    # -- the file ------------------------------------------------------------------------

    def parse(self) -> descriptor_pb2.FileDescriptorProto:
        f = self.file
        if self.is_word("syntax") or self.is_word("edition"):
            word = self.next().value
            self.expect("=")
            tok = self.peek()
            value = self.string().decode()
            self.end()
            if word == "syntax":
                if value not in ("proto2", "proto3"):
                    raise self.error(f"unknown syntax {value!r}", tok)
                self.syntax = value
                if value == "proto3":
                    f.syntax = "proto3"
            else:
                if value not in _EDITIONS:
                    raise self.error(f"edition {value!r} unsupported", tok)
                self.syntax = "editions"
                f.syntax = "editions"
                f.edition = _EDITIONS[value]
        while self.peek().kind != "eof":
            t = self.peek()
            if self.accept(";"):
                continue
            if t.kind != "ident":
                raise self.error(f"expected a declaration, found {show(t)}")
            word = t.value
            self.next()
            if word == "package":
                if f.HasField("package"):
                    raise self.error("a second package statement", t)
                f.package = self.full_ident("a package name")
                self.end()
            elif word == "import":
                kind = None
                if self.is_word("public") or self.is_word("weak"):
                    kind = self.next().value
                path = self.string().decode()
                self.end()
                if kind == "public":
                    f.public_dependency.append(len(f.dependency))
                elif kind == "weak":
                    f.weak_dependency.append(len(f.dependency))
                f.dependency.append(path)
            elif word == "option":
                self.option_statement(f.options)
            elif word == "message":
                self.message(f.message_type.add(), f.package)
            elif word == "enum":
                self.enum(f.enum_type.add())
            elif word == "extend":
                self.extend(f.extension, None, f.package)
            elif word == "service":
                self.service(f.service.add())
            elif word in ("syntax", "edition"):
                raise self.error(f"{word} must be the first statement", t)
            else:
                raise self.error(f"unexpected {word!r} at the top level", t)
        return f

    def message(self, msg, parent_scope: str) -> None:
        msg.name = self.ident("a message name")
        scope = f"{parent_scope}.{msg.name}" if parent_scope else msg.name
        self.expect("{")
        self.message_body(msg, scope)
        # proto3 optional fields: protoc's synthetic oneofs, after the real ones
        names = {fl.name for fl in msg.field} | {o.name for o in msg.oneof_decl}
        for fl in msg.field:
            if fl.proto3_optional:
                oneof = fl.name if fl.name.startswith("_") else "_" + fl.name
                while oneof in names:
                    oneof = "X" + oneof
                names.add(oneof)
                fl.oneof_index = len(msg.oneof_decl)
                msg.oneof_decl.add(name=oneof)

    def message_body(self, msg, scope: str) -> None:
        while not self.accept("}"):
            t = self.peek()
            if t.kind == "eof":
                raise self.error(f"message {msg.name} is never closed ('}}' expected)")
            if self.accept(";"):
                continue
            if self.is_sym("."):  # a field of a fully qualified type
                self.field(msg, scope, msg.field)
                continue
            if t.kind != "ident":
                raise self.error(f"expected a field or declaration, found {show(t)}")
            word = t.value
            nxt = self.peek(1)
            plain = nxt.kind == "ident"
            if word == "message" and plain:
                self.next()
                self.message(msg.nested_type.add(), scope)
            elif word == "enum" and plain:
                self.next()
                self.enum(msg.enum_type.add())
            elif word == "oneof" and plain:
                self.next()
                self.oneof(msg, scope)
            elif word == "option":
                self.next()
                self.option_statement(msg.options)
            elif word == "reserved":
                self.next()
                self.reserved(msg, _MAX_FIELD + 1, exclusive=True)
            elif word == "extensions":
                self.next()
                self.extensions(msg)
            elif word == "extend":
                self.next()
                self.extend(msg.extension, msg, scope)
            else:
                self.field(msg, scope, msg.field)

    def field(self, msg, scope: str, into, oneof_index: int | None = None, extendee=None):
        """A field declaration (label, map or plain) appended to ``into``."""
        start = self.peek()
        label = None
        if (
            oneof_index is None
            and start.kind == "ident"
            and start.value in _LABELS
            and not self.is_sym("=", 1)
        ):
            label = self.next().value
        if self.is_word("map") and self.is_sym("<", 1):
            if label is not None or oneof_index is not None or extendee is not None:
                raise self.error("a map field takes no label and is not in a oneof", start)
            self.map_field(msg, scope, into)
            return
        if self.is_word("group") and self.peek(1).kind == "ident":
            raise self.error("group fields are unsupported (a proto2 construct)")
        if label is None and self.syntax == "proto2" and oneof_index is None:
            raise self.error("a proto2 field needs a label (optional, required or repeated)", start)
        if label == "required" and self.syntax == "proto3":
            raise self.error("proto3 has no required fields", start)
        if label == "optional" and self.syntax == "editions":
            raise self.error("editions have no 'optional' label (use features)", start)
        type_tok = self.peek()
        tname = self.type_name()
        fl = into.add()
        fl.name = self.ident("a field name")
        self.expect("=")
        num_tok = self.peek()
        fl.number = self.integer("a field number")
        if not 1 <= fl.number <= _MAX_FIELD:
            raise self.error(f"field number {fl.number} outside 1..{_MAX_FIELD}", num_tok)
        fl.label = _LABELS[label] if label else FDP.LABEL_OPTIONAL
        if label == "optional" and self.syntax == "proto3" and extendee is None:
            fl.proto3_optional = True
        if oneof_index is not None:
            fl.oneof_index = oneof_index
        if tname in _SCALARS:
            fl.type = _SCALARS[tname]
        else:
            self.pending.append((fl, "type_name", tname, scope, type_tok))
        if extendee is not None:
            self.pending.append((fl, "extendee", extendee[0], extendee[1], extendee[2]))
        if self.is_sym("["):
            self.field_options(fl)
        if not fl.HasField("json_name"):
            fl.json_name = json_name(fl.name)
        self.end()

    def map_field(self, msg, scope: str, into) -> None:
        self.next()
        self.expect("<")
        ktok = self.peek()
        key = self.type_name()
        if key not in _SCALARS or key in ("double", "float", "bytes"):
            raise self.error(f"map key type {key} unsupported (an integer, bool or string)", ktok)
        self.expect(",")
        vtok = self.peek()
        value = self.type_name()
        self.expect(">")
        fl = into.add()
        fl.name = self.ident("a field name")
        self.expect("=")
        num_tok = self.peek()
        fl.number = self.integer("a field number")
        if not 1 <= fl.number <= _MAX_FIELD:
            raise self.error(f"field number {fl.number} outside 1..{_MAX_FIELD}", num_tok)
        fl.label = FDP.LABEL_REPEATED
        fl.type = FDP.TYPE_MESSAGE
        entry = msg.nested_type.add()
        entry.name = entry_name(fl.name)
        entry.options.map_entry = True
        fl.type_name = f".{scope}.{entry.name}"
        k = entry.field.add(name="key", number=1, label=FDP.LABEL_OPTIONAL, json_name="key")
        k.type = _SCALARS[key]
        v = entry.field.add(name="value", number=2, label=FDP.LABEL_OPTIONAL, json_name="value")
        if value in _SCALARS:
            v.type = _SCALARS[value]
        else:
            self.pending.append((v, "type_name", value, f"{scope}.{entry.name}", vtok))
        if self.is_sym("["):
            self.field_options(fl)
        if not fl.HasField("json_name"):
            fl.json_name = json_name(fl.name)
        self.end()

    def oneof(self, msg, scope: str) -> None:
        index = len(msg.oneof_decl)
        decl = msg.oneof_decl.add(name=self.ident("a oneof name"))
        self.expect("{")
        while not self.accept("}"):
            if self.peek().kind == "eof":
                raise self.error(f"oneof {decl.name} is never closed")
            if self.accept(";"):
                continue
            if self.is_word("option") and not self.is_sym("=", 2):
                self.next()
                self.option_statement(decl.options)
                continue
            t = self.peek()
            if (
                t.kind == "ident"
                and t.value in _LABELS
                and self.peek(1).kind == "ident"
                and (self.peek(2).kind == "ident" or self.is_sym(".", 2))
            ):
                raise self.error("oneof fields take no label", t)
            self.field(msg, scope, msg.field, oneof_index=index)

    def reserved(self, owner, max_value: int, exclusive: bool) -> None:
        t = self.peek()
        if t.kind in ("str", "ident"):
            while True:
                t = self.peek()
                if t.kind == "str":
                    owner.reserved_name.append(self.string().decode())
                elif t.kind == "ident":
                    owner.reserved_name.append(self.next().value)
                else:
                    raise self.error(f"expected a reserved name, found {show(t)}")
                if not self.accept(","):
                    break
            self.end()
            return
        while True:
            start = self.integer("a reserved number")
            stop = start
            if self.is_word("to"):
                self.next()
                if self.is_word("max"):
                    self.next()
                    stop = max_value - 1 if exclusive else max_value
                else:
                    stop = self.integer("a reserved number")
            r = owner.reserved_range.add()
            r.start = start
            r.end = stop + 1 if exclusive else stop
            if not self.accept(","):
                break
        self.end()

    def extensions(self, msg) -> None:
        while True:
            start = self.integer("an extension number")
            stop = start
            if self.is_word("to"):
                self.next()
                if self.is_word("max"):
                    self.next()
                    stop = _MAX_FIELD
                else:
                    stop = self.integer("an extension number")
            msg.extension_range.add(start=start, end=stop + 1)
            if not self.accept(","):
                break
        if self.is_sym("["):
            self.expect("[")
            depth = 1
            while depth:
                t = self.next()
                if t.kind == "eof":
                    raise self.error("extension range options are never closed")
                if t.kind == "sym" and t.value in "[]":
                    depth += 1 if t.value == "[" else -1
        self.end()

    def extend(self, into, msg, scope: str) -> None:
        tok = self.peek()
        target = self.type_name()
        self.expect("{")
        while not self.accept("}"):
            if self.peek().kind == "eof":
                raise self.error("an extend block is never closed")
            if self.accept(";"):
                continue
            self.field(msg, scope, into, extendee=(target, scope, tok))

    def enum(self, en) -> None:
        name_tok = self.peek()
        en.name = self.ident("an enum name")
        first_tok = None
        self.expect("{")
        while not self.accept("}"):
            t = self.peek()
            if t.kind == "eof":
                raise self.error(f"enum {en.name} is never closed")
            if self.accept(";"):
                continue
            if t.kind != "ident":
                raise self.error(f"expected an enum value, found {show(t)}")
            if t.value == "option" and not self.is_sym("=", 1):
                self.next()
                self.option_statement(en.options)
                continue
            if t.value == "reserved" and not self.is_sym("=", 1):
                self.next()
                self.reserved(en, 2**31 - 1, exclusive=False)
                continue
            v = en.value.add(name=self.ident())
            self.expect("=")
            num_tok = self.peek()
            first_tok = first_tok or num_tok
            v.number = self.integer("an enum value number")
            if not -(2**31) <= v.number < 2**31:
                raise self.error(f"enum value {v.number} outside int32", num_tok)
            if self.is_sym("["):
                self.expect("[")
                while True:
                    otok = self.peek()
                    parts, custom = self.option_name()
                    self.expect("=")
                    value = self.constant()
                    if custom:
                        v.options.SetInParent()
                    else:
                        self.set_option(v.options, parts, value, otok)
                    if self.accept("]"):
                        break
                    self.expect(",")
            self.end()
        if not en.value:
            raise self.error(f"enum {en.name} has no values", name_tok)
        if self.syntax == "proto3" and en.value[0].number != 0:
            raise self.error(f"the first value of proto3 enum {en.name} must be 0", first_tok)

    def service(self, svc) -> None:
        svc.name = self.ident("a service name")
        scope = self.file.package
        self.expect("{")
        while not self.accept("}"):
            t = self.peek()
            if t.kind == "eof":
                raise self.error(f"service {svc.name} is never closed")
            if self.accept(";"):
                continue
            word = self.ident("rpc or option")
            if word == "option":
                self.option_statement(svc.options)
                continue
            if word != "rpc":
                raise self.error(f"expected rpc or option, found {word!r}", t)
            m = svc.method.add(name=self.ident("a method name"))
            self.expect("(")
            if self.is_word("stream") and (self.peek(1).kind == "ident" or self.is_sym(".", 1)):
                self.next()
                m.client_streaming = True
            itok = self.peek()
            self.pending.append((m, "input_type", self.type_name(), scope, itok))
            self.expect(")")
            if self.ident("returns") != "returns":
                raise self.error("expected 'returns'")
            self.expect("(")
            if self.is_word("stream") and (self.peek(1).kind == "ident" or self.is_sym(".", 1)):
                self.next()
                m.server_streaming = True
            otok = self.peek()
            self.pending.append((m, "output_type", self.type_name(), scope, otok))
            self.expect(")")
            if self.accept("{"):
                m.options.SetInParent()  # as protoc: a body gives the method options
                while not self.accept("}"):
                    if self.peek().kind == "eof":
                        raise self.error(f"rpc {m.name} is never closed")
                    if self.accept(";"):
                        continue
                    if self.ident("option") != "option":
                        raise self.error("expected option")
                    self.option_statement(m.options)
            else:
                self.end()
