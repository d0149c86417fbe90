// Command ctyvectors prints, as JSON, how the real go-cty encodes a catalogue of
// cty values to msgpack and JSON, so the TypeScript codec can be checked
// against it byte for byte (see README.md).
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// A round-trip case: value encoded under type by go-cty.
type roundTrip struct {
	Name    string          `json:"name"`
	Type    json.RawMessage `json:"type"`
	Value   any             `json:"value"`
	Msgpack string          `json:"msgpack"`
	// JSON is go-cty's JSON encoding, or absent when go-cty refuses (unknowns).
	JSON      *string `json:"json,omitempty"`
	JSONError string  `json:"jsonError,omitempty"`
	// JSONDecoded is what go-cty gets back from JSON, which can differ from
	// Value (JSON numbers come back at 512-bit precision).
	JSONDecoded any `json:"jsonDecoded"`
}

// A decode-only case: input bytes not necessarily written by go-cty.
type decodeCase struct {
	Name  string          `json:"name"`
	Type  json.RawMessage `json:"type"`
	Input string          `json:"input"` // hex for msgpack, text for JSON
	Value any             `json:"value"`
	Error string          `json:"error,omitempty"`
	// Reencoded is go-cty's encoding (hex msgpack or JSON text) of the decoded value.
	Reencoded string `json:"reencoded,omitempty"`
}

type output struct {
	Comment       string       `json:"//"`
	GoCty         string       `json:"goCty"`
	Go            string       `json:"go"`
	Cases         []roundTrip  `json:"cases"`
	MsgpackDecode []decodeCase `json:"msgpackDecode"`
	JSONDecode    []decodeCase `json:"jsonDecode"`
}

func typeJSON(t cty.Type) json.RawMessage {
	b, err := t.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return b
}

var twoPow53 = new(big.Float).SetFloat64(1 << 53)

// describe renders a value in a tagged JSON form the TS tests turn into the
// CtyValue they expect: numbers say whether a JS number holds them exactly.
func describe(v cty.Value, ty cty.Type) any {
	if ty == cty.DynamicPseudoType && v.Type() != cty.DynamicPseudoType {
		return map[string]any{"$": "dyn", "type": typeJSON(v.Type()), "value": describe(v, v.Type())}
	}
	if !v.IsKnown() {
		out := map[string]any{"$": "unknown"}
		if ty == cty.DynamicPseudoType {
			return out
		}
		rng := v.Range()
		ref := map[string]any{}
		if rng.DefinitelyNotNull() {
			ref["notNull"] = true
		}
		switch {
		case ty == cty.String:
			if p := rng.StringPrefix(); p != "" {
				ref["stringPrefix"] = p
			}
		case ty == cty.Number:
			if lo, inc := rng.NumberLowerBound(); lo.IsKnown() && lo != cty.NegativeInfinity {
				ref["numberLower"] = map[string]any{"value": describe(lo, cty.Number), "inclusive": inc}
			}
			if hi, inc := rng.NumberUpperBound(); hi.IsKnown() && hi != cty.PositiveInfinity {
				ref["numberUpper"] = map[string]any{"value": describe(hi, cty.Number), "inclusive": inc}
			}
		case ty.IsCollectionType():
			if lo := rng.LengthLowerBound(); lo != 0 {
				ref["lengthLower"] = lo
			}
			if hi := rng.LengthUpperBound(); hi != math.MaxInt {
				ref["lengthUpper"] = hi
			}
		}
		if len(ref) > 0 {
			out["refinement"] = ref
		}
		return out
	}
	if v.IsNull() {
		return nil
	}
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Bool:
		return v.True()
	case ty == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInf() {
			return map[string]any{"$": "num", "v": bf.Text('f', -1), "js": "number"}
		}
		// A JS number holds a cty number when the value is exactly a float64,
		// except integers beyond 2^53 that did not arrive as a float64: those
		// print differently at 53 bits than at their own precision, so they
		// stay decimal text (BigNum) to re-encode byte for byte.
		js := "bignum"
		if _, acc := bf.Float64(); acc == big.Exact {
			if !bf.IsInt() || bf.Prec() <= 53 || new(big.Float).Abs(bf).Cmp(twoPow53) <= 0 {
				js = "number"
			}
		}
		if js == "number" {
			// strconv's shortest form parses back to the same float64; big.Float's
			// Text does not always (its bounds are wide below a power of two).
			f, _ := bf.Float64()
			return map[string]any{"$": "num", "v": strconv.FormatFloat(f, 'g', -1, 64), "js": js}
		}
		return map[string]any{"$": "num", "v": bf.Text('f', -1), "js": js}
	case ty.IsListType(), ty.IsSetType():
		out := []any{}
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			out = append(out, describe(ev, ty.ElementType()))
		}
		return out
	case ty.IsTupleType():
		out := []any{}
		etys := ty.TupleElementTypes()
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, ev := it.Element()
			out = append(out, describe(ev, etys[i]))
		}
		return out
	case ty.IsMapType():
		m := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			m[k.AsString()] = describe(ev, ty.ElementType())
		}
		return map[string]any{"$": "map", "v": m}
	case ty.IsObjectType():
		m := map[string]any{}
		for name, aty := range ty.AttributeTypes() {
			m[name] = describe(v.GetAttr(name), aty)
		}
		return map[string]any{"$": "obj", "v": m}
	}
	panic(fmt.Sprintf("cannot describe %#v", ty))
}

var out output
var failures []string

func rt(name string, v cty.Value, ty cty.Type) {
	mp, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		panic(fmt.Sprintf("%s: msgpack: %s", name, err))
	}
	back, err := ctymsgpack.Unmarshal(mp, ty)
	if err != nil {
		panic(fmt.Sprintf("%s: msgpack unmarshal: %s", name, err))
	}
	// The TS codec is held to go-cty's own round trip, so check it holds here.
	if again, err := ctymsgpack.Marshal(back, ty); err != nil || !bytes.Equal(again, mp) {
		failures = append(failures, name+": go-cty msgpack does not round-trip")
	}
	c := roundTrip{Name: name, Type: typeJSON(ty), Value: describe(back, ty), Msgpack: hex.EncodeToString(mp)}
	// JSON of the msgpack-decoded value, which Value describes (it differs from
	// the original only where msgpack drops a distinction, e.g. -0 becomes 0).
	js, err := ctyjson.Marshal(back, ty)
	if err != nil {
		c.JSONError = err.Error()
	} else {
		s := string(js)
		c.JSON = &s
		jb, err := ctyjson.Unmarshal(js, ty)
		if err != nil {
			panic(fmt.Sprintf("%s: json unmarshal: %s", name, err))
		}
		c.JSONDecoded = describe(jb, ty)
		if again, err := ctyjson.Marshal(jb, ty); err != nil || string(again) != s {
			failures = append(failures, name+": go-cty JSON does not round-trip")
		}
	}
	out.Cases = append(out.Cases, c)
}

func mpDecode(name string, ty cty.Type, hexIn string) {
	b, err := hex.DecodeString(strings.ReplaceAll(hexIn, " ", ""))
	if err != nil {
		panic(err)
	}
	c := decodeCase{Name: name, Type: typeJSON(ty), Input: hex.EncodeToString(b)}
	defer func() {
		if r := recover(); r != nil {
			c.Error = fmt.Sprintf("go-cty panicked: %v", r)
			out.MsgpackDecode = append(out.MsgpackDecode, c)
		}
	}()
	v, err := ctymsgpack.Unmarshal(b, ty)
	if err != nil {
		c.Error = err.Error()
	} else {
		c.Value = describe(v, ty)
		again, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			panic(err)
		}
		c.Reencoded = hex.EncodeToString(again)
	}
	out.MsgpackDecode = append(out.MsgpackDecode, c)
}

func jsDecode(name string, ty cty.Type, in string) {
	c := decodeCase{Name: name, Type: typeJSON(ty), Input: in}
	// Some malformed inputs make go-cty panic (for example a short tuple at
	// the root); the TS codec must reject those with an error instead.
	defer func() {
		if r := recover(); r != nil {
			c.Error = fmt.Sprintf("go-cty panicked: %v", r)
			out.JSONDecode = append(out.JSONDecode, c)
		}
	}()
	v, err := ctyjson.Unmarshal([]byte(in), ty)
	if err != nil {
		c.Error = err.Error()
	} else {
		c.Value = describe(v, ty)
		again, err := ctyjson.Marshal(v, ty)
		if err != nil {
			panic(err)
		}
		c.Reencoded = string(again)
	}
	out.JSONDecode = append(out.JSONDecode, c)
}

func num(s string) cty.Value { return cty.MustParseNumberVal(s) }

func obj(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }

func main() {
	S, N, B, D := cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType

	// --- strings
	rt("string empty", cty.StringVal(""), S)
	rt("string ascii", cty.StringVal("hello"), S)
	rt("string unicode", cty.StringVal("héllo wörld 😀 \uffff \U0010ffff"), S)
	rt("string 31 bytes", cty.StringVal(strings.Repeat("x", 31)), S)
	rt("string 32 bytes (str8)", cty.StringVal(strings.Repeat("x", 32)), S)
	rt("string 300 bytes (str16)", cty.StringVal(strings.Repeat("ab", 150)), S)
	rt("string 70000 bytes (str32)", cty.StringVal(strings.Repeat("z", 70000)), S)
	rt("string escapes", cty.StringVal("q\"b\\s/\b\f\n\r\t\x00\x01\x1f\x7f<>&\u2028\u2029é"), S)
	rt("string null", cty.NullVal(S), S)
	rt("string unknown", cty.UnknownVal(S), S)
	rt("string unknown not null", cty.UnknownVal(S).RefineNotNull(), S)
	rt("string unknown prefix", cty.UnknownVal(S).Refine().StringPrefixFull("abc").NewValue(), S)
	rt("string unknown prefix not null", cty.UnknownVal(S).Refine().NotNull().StringPrefixFull("https://").NewValue(), S)
	rt("string unknown safe prefix", cty.UnknownVal(S).Refine().StringPrefix("hello/").NewValue(), S)
	rt("string unknown unicode prefix", cty.UnknownVal(S).Refine().StringPrefixFull("ünï/😀").NewValue(), S)
	rt("string unknown prefix 256 bytes", cty.UnknownVal(S).Refine().StringPrefixFull(strings.Repeat("p", 256)).NewValue(), S)
	rt("string unknown prefix 300 ascii (truncated)", cty.UnknownVal(S).Refine().StringPrefixFull(strings.Repeat("a", 300)).NewValue(), S)
	rt("string unknown prefix 300 delimiters (truncated)", cty.UnknownVal(S).Refine().StringPrefixFull(strings.Repeat("a/", 150)).NewValue(), S)
	rt("string unknown prefix 300 multibyte (truncated)", cty.UnknownVal(S).Refine().StringPrefixFull(strings.Repeat("é", 150)).NewValue(), S)

	// --- numbers
	ints := []int64{0, 1, -1, 127, 128, 255, 256, -32, -33, -128, -129, 32767, 32768, 65535, 65536, -32768, -32769,
		2147483647, 2147483648, 4294967295, 4294967296, -2147483648, -2147483649, 1 << 53, 1<<53 + 1, -(1 << 53) - 1, 1 << 62,
		math.MaxInt64, math.MinInt64}
	for _, i := range ints {
		rt(fmt.Sprintf("number int %d", i), cty.NumberIntVal(i), N)
	}
	rt("number uint64 max", cty.NumberUIntVal(math.MaxUint64), N)
	rt("number 2^63 parsed", num("9223372036854775808"), N)
	rt("number 2^64 parsed", num("18446744073709551616"), N)
	rt("number -2^64 parsed", num("-18446744073709551616"), N)
	floats := []float64{1.5, -0.25, 0.1, 0.2, 1.0 / 3.0, 3.141592653589793, 1e-7, 123456.789, math.Pow(2, 64), math.Pow(2, 70),
		math.Pow(2, 80), math.Pow(2, 100), 1e21, 1e22, 1e300, -1e300, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64 * 3,
		9007199254740993.0, 1.2345678901234567e25, 2.5, math.Copysign(0, -1)}
	for _, f := range floats {
		rt(fmt.Sprintf("number float %v", f), cty.NumberFloatVal(f), N)
	}
	rt("number +Inf", cty.PositiveInfinity, N)
	rt("number -Inf", cty.NegativeInfinity, N)
	for _, s := range []string{"0.1", "0.5", "-0.75", "1e400", "-1e400", "1e-400", "123456789012345678901234567890.123456789",
		"0.30000000000000000000000000001", "100", "1e2", "12345678901234567890", "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196",
		"1.00000000005", "1.00000000015", "-0"} {
		rt("number parsed "+s[:min(len(s), 40)], num(s), N)
	}
	rt("number 1/3 (512-bit)", cty.NumberIntVal(1).Divide(cty.NumberIntVal(3)), N)
	rt("number 2/3 (512-bit)", cty.NumberIntVal(2).Divide(cty.NumberIntVal(3)), N)
	rt("number null", cty.NullVal(N), N)
	rt("number unknown", cty.UnknownVal(N), N)
	rt("number unknown not null", cty.UnknownVal(N).RefineNotNull(), N)
	rt("number unknown lower inclusive", cty.UnknownVal(N).Refine().NumberRangeLowerBound(cty.Zero, true).NewValue(), N)
	rt("number unknown upper exclusive", cty.UnknownVal(N).Refine().NumberRangeUpperBound(cty.NumberIntVal(10), false).NewValue(), N)
	rt("number unknown both bounds not null", cty.UnknownVal(N).Refine().NotNull().NumberRangeInclusive(cty.NumberIntVal(-5), cty.NumberFloatVal(7.5)).NewValue(), N)
	rt("number unknown big bounds", cty.UnknownVal(N).Refine().NumberRangeLowerBound(num("0.1"), false).NumberRangeUpperBound(num("1e30"), true).NewValue(), N)
	rt("number unknown -inf lower", cty.UnknownVal(N).Refine().NumberRangeLowerBound(cty.NegativeInfinity, true).NumberRangeUpperBound(cty.NumberIntVal(300), true).NewValue(), N)

	// --- bools
	rt("bool true", cty.True, B)
	rt("bool false", cty.False, B)
	rt("bool null", cty.NullVal(B), B)
	rt("bool unknown", cty.UnknownVal(B), B)
	rt("bool unknown not null", cty.UnknownVal(B).RefineNotNull(), B)

	// --- lists
	LS := cty.List(S)
	rt("list empty", cty.ListValEmpty(S), LS)
	rt("list strings", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), LS)
	rt("list with null and unknown", cty.ListVal([]cty.Value{cty.NullVal(S), cty.StringVal("x"), cty.UnknownVal(S), cty.UnknownVal(S).RefineNotNull()}), LS)
	rt("list null", cty.NullVal(LS), LS)
	rt("list unknown", cty.UnknownVal(LS), LS)
	rt("list unknown not null", cty.UnknownVal(LS).RefineNotNull(), LS)
	rt("list unknown length bounds", cty.UnknownVal(LS).Refine().NotNull().CollectionLengthLowerBound(1).CollectionLengthUpperBound(5).NewValue(), LS)
	rt("list unknown length lower only", cty.UnknownVal(LS).Refine().CollectionLengthLowerBound(2).NewValue(), LS)
	rt("list unknown length upper only", cty.UnknownVal(cty.List(N)).Refine().CollectionLengthUpperBound(300).NewValue(), cty.List(N))
	var many []cty.Value
	for i := 0; i < 20; i++ {
		many = append(many, cty.NumberIntVal(int64(i*1000)))
	}
	rt("list 20 numbers (array16)", cty.ListVal(many), cty.List(N))
	rt("list of lists", cty.ListVal([]cty.Value{cty.ListValEmpty(N), cty.NullVal(cty.List(N)), cty.ListVal([]cty.Value{cty.NumberFloatVal(0.5)})}), cty.List(cty.List(N)))

	// --- sets
	SS := cty.Set(S)
	rt("set strings sorted", cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a"), cty.StringVal("c"), cty.StringVal("B"), cty.StringVal("")}), SS)
	rt("set strings unicode order", cty.SetVal([]cty.Value{cty.StringVal("\uffff"), cty.StringVal("😀"), cty.StringVal("z"), cty.StringVal("é")}), SS)
	rt("set strings with unknowns and null", cty.SetVal([]cty.Value{cty.UnknownVal(S), cty.StringVal("b"), cty.NullVal(S), cty.StringVal("a"), cty.UnknownVal(S).RefineNotNull()}), SS)
	rt("set empty", cty.SetValEmpty(S), SS)
	rt("set null", cty.NullVal(SS), SS)
	rt("set unknown length", cty.UnknownVal(SS).Refine().CollectionLengthLowerBound(2).NewValue(), SS)
	rt("set numbers", cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(-1), cty.NumberFloatVal(0.5), num("0.1"), cty.NumberIntVal(100), num("1e30")}), cty.Set(N))
	rt("set bools", cty.SetVal([]cty.Value{cty.True, cty.False}), cty.Set(B))
	objT := cty.Object(map[string]cty.Type{"name": S, "port": N, "tags": cty.Set(S)})
	rt("set objects", cty.SetVal([]cty.Value{
		obj(map[string]cty.Value{"name": cty.StringVal("web"), "port": cty.NumberIntVal(443), "tags": cty.SetVal([]cty.Value{cty.StringVal("x")})}),
		obj(map[string]cty.Value{"name": cty.StringVal("web"), "port": cty.NumberIntVal(80), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.StringVal("api"), "port": cty.NumberIntVal(8080), "tags": cty.NullVal(cty.Set(S))}),
		obj(map[string]cty.Value{"name": cty.StringVal("a\"q"), "port": cty.NumberFloatVal(1.5), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.StringVal("a\nb"), "port": cty.NumberFloatVal(12345678905), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.StringVal("ü\x01"), "port": num("1.00000000005"), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.NullVal(S), "port": cty.NumberFloatVal(1e-7), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.UnknownVal(S), "port": cty.NumberFloatVal(1e21), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.StringVal("big"), "port": num("123456789012"), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.StringVal("tiny"), "port": cty.NumberFloatVal(0.000123), "tags": cty.SetValEmpty(S)}),
		obj(map[string]cty.Value{"name": cty.StringVal("neg"), "port": cty.NumberIntVal(-7), "tags": cty.SetValEmpty(S)}),
	}), cty.Set(objT))
	rt("set objects with unknown element", cty.SetVal([]cty.Value{
		obj(map[string]cty.Value{"name": cty.StringVal("b"), "port": cty.NumberIntVal(1), "tags": cty.SetValEmpty(S)}),
		cty.UnknownVal(objT),
		obj(map[string]cty.Value{"name": cty.StringVal("a"), "port": cty.NumberIntVal(2), "tags": cty.UnknownVal(cty.Set(S))}),
	}), cty.Set(objT))
	rt("set of lists", cty.SetVal([]cty.Value{
		cty.ListVal([]cty.Value{cty.StringVal("b")}),
		cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("c")}),
		cty.ListValEmpty(S),
	}), cty.Set(LS))
	rt("set of maps", cty.SetVal([]cty.Value{
		cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v"), "a": cty.StringVal("z")}),
		cty.MapVal(map[string]cty.Value{"b": cty.StringVal("1")}),
	}), cty.Set(cty.Map(S)))
	rt("set of sets of numbers", cty.SetVal([]cty.Value{
		cty.SetVal([]cty.Value{cty.NumberIntVal(10), cty.NumberIntVal(2)}),
		cty.SetVal([]cty.Value{cty.NumberIntVal(1)}),
		cty.SetVal([]cty.Value{cty.NumberFloatVal(2.5e-5), cty.NumberFloatVal(1e300), num("1e400")}),
	}), cty.Set(cty.Set(N)))
	rt("set of tuples", cty.SetVal([]cty.Value{
		cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.True}),
		cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.False}),
		cty.TupleVal([]cty.Value{cty.NullVal(S), cty.False}),
	}), cty.Set(cty.Tuple([]cty.Type{S, B})))

	// --- maps
	MS := cty.Map(S)
	rt("map empty", cty.MapValEmpty(S), MS)
	rt("map sorted keys", cty.MapVal(map[string]cty.Value{"b": cty.StringVal("2"), "a": cty.StringVal("1"), "B": cty.StringVal("0"), "😀": cty.StringVal("e"), "\uffff": cty.StringVal("f")}), MS)
	rt("map null and unknown values", cty.MapVal(map[string]cty.Value{"n": cty.NullVal(S), "u": cty.UnknownVal(S), "p": cty.UnknownVal(S).Refine().StringPrefixFull("ab").NewValue()}), MS)
	rt("map __proto__ key", cty.MapVal(map[string]cty.Value{"__proto__": cty.StringVal("x"), "constructor": cty.StringVal("y")}), MS)
	mm := map[string]cty.Value{}
	for i := 0; i < 20; i++ {
		mm[fmt.Sprintf("key%02d", i)] = cty.NumberIntVal(int64(-i))
	}
	rt("map 20 entries (map16)", cty.MapVal(mm), cty.Map(N))
	rt("map null", cty.NullVal(MS), MS)
	rt("map unknown length bounds", cty.UnknownVal(MS).Refine().NotNull().CollectionLengthUpperBound(3).NewValue(), MS)
	rt("map of objects", cty.MapVal(map[string]cty.Value{"x": obj(map[string]cty.Value{"a": cty.NumberIntVal(1)})}), cty.Map(cty.Object(map[string]cty.Type{"a": N})))

	// --- tuples
	TT := cty.Tuple([]cty.Type{S, N, B})
	rt("tuple", cty.TupleVal([]cty.Value{cty.StringVal("s"), cty.NumberIntVal(1), cty.True}), TT)
	rt("tuple with nulls", cty.TupleVal([]cty.Value{cty.NullVal(S), cty.NullVal(N), cty.UnknownVal(B)}), TT)
	rt("tuple empty", cty.EmptyTupleVal, cty.EmptyTuple)
	rt("tuple null", cty.NullVal(TT), TT)
	rt("tuple unknown not null", cty.UnknownVal(TT).RefineNotNull(), TT)

	// --- objects
	rt("object empty", cty.EmptyObjectVal, cty.EmptyObject)
	OT := cty.Object(map[string]cty.Type{"b": S, "a": N, "Z": B, "ä": S, "__proto__": S, "list": LS, "nested": cty.Object(map[string]cty.Type{"y": S, "x": cty.Map(N)})})
	rt("object all attrs", obj(map[string]cty.Value{
		"b": cty.StringVal("bee"), "a": cty.NumberIntVal(1), "Z": cty.False, "ä": cty.StringVal("umlaut"), "__proto__": cty.StringVal("proto"),
		"list":   cty.ListVal([]cty.Value{cty.StringVal("l")}),
		"nested": obj(map[string]cty.Value{"y": cty.StringVal("why"), "x": cty.MapVal(map[string]cty.Value{"q": cty.NumberFloatVal(0.25)})}),
	}), OT)
	rt("object with null attrs", obj(map[string]cty.Value{
		"b": cty.NullVal(S), "a": cty.NullVal(N), "Z": cty.NullVal(B), "ä": cty.UnknownVal(S), "__proto__": cty.NullVal(S),
		"list": cty.NullVal(LS), "nested": cty.NullVal(cty.Object(map[string]cty.Type{"y": S, "x": cty.Map(N)})),
	}), OT)
	rt("object null", cty.NullVal(OT), OT)
	rt("object unknown not null", cty.UnknownVal(OT).RefineNotNull(), OT)
	optT := cty.ObjectWithOptionalAttrs(map[string]cty.Type{"req": S, "opt": N, "opt2": B}, []string{"opt2", "opt"})
	rt("object type with optional attrs", obj(map[string]cty.Value{"req": cty.StringVal("r"), "opt": cty.NullVal(N), "opt2": cty.True}), optT)
	wide := map[string]cty.Value{}
	for i := 0; i < 20; i++ {
		wide[fmt.Sprintf("attr_%d", i)] = cty.StringVal(fmt.Sprint(i))
	}
	wideT := map[string]cty.Type{}
	for k := range wide {
		wideT[k] = S
	}
	rt("object 20 attrs (map16)", obj(wide), cty.Object(wideT))

	// --- dynamic
	rt("dynamic null", cty.NullVal(D), D)
	rt("dynamic unknown", cty.DynamicVal, D)
	rt("dynamic string", cty.StringVal("hi"), D)
	rt("dynamic number", cty.NumberIntVal(42), D)
	rt("dynamic bool", cty.True, D)
	rt("dynamic typed null", cty.NullVal(S), D)
	rt("dynamic typed unknown", cty.UnknownVal(N), D)
	rt("dynamic typed refined unknown", cty.UnknownVal(S).Refine().NotNull().StringPrefixFull("id-").NewValue(), D)
	rt("dynamic list", cty.ListVal([]cty.Value{cty.StringVal("a")}), D)
	rt("dynamic object", obj(map[string]cty.Value{"z": cty.NumberIntVal(1), "a": cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NullVal(D)}), "m": cty.MapValEmpty(B)}), D)
	rt("dynamic empty tuple", cty.EmptyTupleVal, D)
	rt("dynamic empty object", cty.EmptyObjectVal, D)
	rt("dynamic set of objects", cty.SetVal([]cty.Value{obj(map[string]cty.Value{"k": cty.StringVal("2")}), obj(map[string]cty.Value{"k": cty.StringVal("1")})}), D)
	rt("object with dynamic attr", obj(map[string]cty.Value{"d": cty.NumberFloatVal(1.5), "s": cty.StringVal("x")}), cty.Object(map[string]cty.Type{"d": D, "s": S}))
	rt("object with dynamic attrs null and unknown", obj(map[string]cty.Value{"d": cty.NullVal(D), "e": cty.DynamicVal}), cty.Object(map[string]cty.Type{"d": D, "e": D}))
	rt("list of dynamic", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), cty.List(D))
	rt("map of dynamic", cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}), cty.Map(D))
	rt("dynamic big number", num("1e400"), D)
	rt("dynamic object key needing escape", obj(map[string]cty.Value{"<&>": cty.StringVal("x"), "é": cty.True}), D)

	// --- deep nesting
	inner := cty.Object(map[string]cty.Type{"m": cty.Map(cty.Set(N)), "t": cty.Tuple([]cty.Type{S, D})})
	deepT := cty.Object(map[string]cty.Type{"items": cty.List(inner), "id": S})
	rt("deep nesting", obj(map[string]cty.Value{
		"id": cty.StringVal("root"),
		"items": cty.ListVal([]cty.Value{
			obj(map[string]cty.Value{
				"m": cty.MapVal(map[string]cty.Value{"x": cty.SetVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(1)}), "y": cty.NullVal(cty.Set(N))}),
				"t": cty.TupleVal([]cty.Value{cty.StringVal("s"), cty.ListVal([]cty.Value{cty.True})}),
			}),
			obj(map[string]cty.Value{"m": cty.UnknownVal(cty.Map(cty.Set(N))), "t": cty.TupleVal([]cty.Value{cty.UnknownVal(S).RefineNotNull(), cty.UnknownVal(cty.List(B))})}),
		}),
	}), deepT)

	// --- msgpack inputs go-cty accepts but does not write
	mpDecode("uint64 max", N, "cf ffffffffffffffff")
	mpDecode("uint8 small", N, "cc 05")
	mpDecode("int64 encoding of 1", N, "d3 0000000000000001")
	mpDecode("float32", N, "ca 3fc00000")
	mpDecode("float64 integral", N, "cb 4330000000000001")
	mpDecode("float64 2^70", N, "cb 4450000000000000")
	mpDecode("number as string 1e3", N, "a3 316533")
	mpDecode("number as string 0.5", N, "a3 302e35")
	mpDecode("number as string 42", N, "a2 3432")
	mpDecode("number as bin", N, "c4 03 312e35")
	mpDecode("number as bad string", N, "a3 616263")
	mpDecode("string as bin", S, "c4 03 616263")
	mpDecode("ext8 empty unknown", S, "c7 00 00")
	mpDecode("fixext1 other type is still unknown", S, "d4 05 00")
	mpDecode("refinement null=true collapses to null", S, "c7 03 0c 81 01 c3")
	mpDecode("number refinement equal bounds collapse", N, "c7 0b 0c 83 01 c2 03 92 05 c3 04 92 05 c3")
	mpDecode("list refinement length 0 collapses", LS, "c7 07 0c 83 01 c2 05 00 06 00")
	mpDecode("list refinement length 2 collapses", LS, "c7 07 0c 83 01 c2 05 02 06 02")
	mpDecode("set refinement length 1 collapses", SS, "c7 07 0c 83 01 c2 05 01 06 01")
	mpDecode("refinement on dynamic ignored", D, "c7 03 0c 81 01 c2")
	mpDecode("dynamic with str type", D, "92 a8 22737472696e6722 a2 6869")
	mpDecode("dynamic with bin type", D, "92 c4 08 22737472696e6722 a2 6869")
	mpDecode("dynamic with dynamic type", D, "92 c4 09 2264796e616d696322 c0")
	mpDecode("object keys in any order", cty.Object(map[string]cty.Type{"a": N, "b": N}), "82 a1 62 02 a1 61 01")
	mpDecode("map keys as bin", MS, "81 c4 01 6b a1 76")
	mpDecode("unsupported ext with payload", S, "d6 05 00000000")
	mpDecode("prefix refinement on number", N, "c7 04 0c 81 02 a1 61")
	mpDecode("string where number expected", N, "a1 78")
	mpDecode("tuple wrong length", TT, "92 a1 73 01")
	mpDecode("object wrong attr count", cty.Object(map[string]cty.Type{"a": N, "b": N}), "81 a1 61 01")
	mpDecode("object unknown attr", cty.Object(map[string]cty.Type{"a": N}), "81 a1 7a 01")

	// --- JSON inputs go-cty accepts but does not write
	jsDecode("number from string", N, `"12"`)
	jsDecode("big int", N, `12345678901234567890`)
	jsDecode("exponent", N, `1E2`)
	jsDecode("tiny", N, `1e-400`)
	jsDecode("huge", N, `-1e400`)
	jsDecode("negative zero", N, `-0`)
	jsDecode("decimal", N, `0.1`)
	jsDecode("half", N, `0.5`)
	jsDecode("bool from string true", B, `"true"`)
	jsDecode("bool from string 0", B, `"0"`)
	jsDecode("bool from bad string", B, `"yes"`)
	jsDecode("string from number keeps text", S, `12.50`)
	jsDecode("string from bool", S, `false`)
	jsDecode("string escapes", S, `"\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\"`)
	jsDecode("object missing attrs are null", cty.Object(map[string]cty.Type{"a": N, "b": S}), ` { "a" : 1 } `)
	jsDecode("object unknown attr", cty.Object(map[string]cty.Type{"a": N}), `{"a":1,"z":2}`)
	jsDecode("object duplicate key last wins", cty.Object(map[string]cty.Type{"a": N}), `{"a":1,"a":2}`)
	jsDecode("dynamic type first", D, `{"type":["list","number"],"value":[1,2]}`)
	jsDecode("dynamic nested dynamic", D, `{"value":{"value":"x","type":"string"},"type":"dynamic"}`)
	jsDecode("dynamic null value", D, `{"value":null,"type":"string"}`)
	jsDecode("dynamic missing type", D, `{"value":1}`)
	jsDecode("dynamic bad key", D, `{"value":1,"type":"number","x":1}`)
	jsDecode("tuple too short", TT, `["a",1]`)
	jsDecode("tuple too long", TT, `["a",1,true,4]`)
	jsDecode("number from bool", N, `true`)
	jsDecode("list from object", LS, `{}`)
	jsDecode("set duplicates", cty.Set(N), `[2,1,2]`)
	jsDecode("map", cty.Map(N), `{"b":1,"a":2}`)

	randomCases()

	if len(failures) > 0 {
		fmt.Fprintln(os.Stderr, strings.Join(failures, "\n"))
		os.Exit(1)
	}

	out.Comment = "Generated by test/peers/ctyvectors (go run .): how go-cty encodes these values. Do not edit by hand."
	out.Go = runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/zclconf/go-cty" {
				out.GoCty = d.Version
			}
		}
	}
	writeOutput(os.Stdout)
	fmt.Fprintf(os.Stderr, "ctyvectors: %d cases from go-cty %s (%d random combinations go-cty cannot build were skipped)\n", len(out.Cases), out.GoCty, skipped)
}

// writeOutput prints the vectors one case per line, which keeps the file
// small and its diffs readable when go-cty changes.
func writeOutput(w io.Writer) {
	line := func(v any) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			panic(err)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	fmt.Fprintf(w, "{\n\"//\": %s,\n\"goCty\": %s,\n\"go\": %s,\n", line(out.Comment), line(out.GoCty), line(out.Go))
	section := func(name string, n int, item func(i int) any, last bool) {
		fmt.Fprintf(w, "%q: [\n", name)
		for i := 0; i < n; i++ {
			sep := ","
			if i == n-1 {
				sep = ""
			}
			fmt.Fprintf(w, "%s%s\n", line(item(i)), sep)
		}
		if last {
			fmt.Fprint(w, "]\n}\n")
		} else {
			fmt.Fprint(w, "],\n")
		}
	}
	section("cases", len(out.Cases), func(i int) any { return out.Cases[i] }, false)
	section("msgpackDecode", len(out.MsgpackDecode), func(i int) any { return out.MsgpackDecode[i] }, false)
	section("jsonDecode", len(out.JSONDecode), func(i int) any { return out.JSONDecode[i] }, true)
}
