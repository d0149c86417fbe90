package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Seeded random types and values, so the vectors also cover combinations
// nobody thought to write down (set ordering of nested values above all).

var attrNames = []string{"a", "b", "id", "name", "Z", "é", "__proto__", "x-y", "", "tags", "😀", "\uffff"}
var words = []string{"", "a", "b", "B", "web", "api", "é", "e\u0301", "😀", "\uffff", "a\"q", "tab\there", "nl\n", "\x01", "<&>", "zz", "Ünï", "\u2028", "long-" + strings.Repeat("x", 40)}

func randType(r *rand.Rand, depth int) cty.Type {
	prims := []cty.Type{cty.String, cty.Number, cty.Bool}
	if depth <= 0 || r.Intn(3) == 0 {
		if r.Intn(12) == 0 {
			return cty.DynamicPseudoType
		}
		return prims[r.Intn(len(prims))]
	}
	switch r.Intn(6) {
	case 0:
		return cty.List(randType(r, depth-1))
	case 1:
		return cty.Set(randType(r, depth-1))
	case 2:
		return cty.Map(randType(r, depth-1))
	case 3:
		n := r.Intn(4)
		ts := make([]cty.Type, n)
		for i := range ts {
			ts[i] = randType(r, depth-1)
		}
		return cty.Tuple(ts)
	default:
		n := r.Intn(5)
		attrs := map[string]cty.Type{}
		for i := 0; i < n; i++ {
			attrs[attrNames[r.Intn(len(attrNames))]] = randType(r, depth-1)
		}
		return cty.Object(attrs)
	}
}

func randNumber(r *rand.Rand) cty.Value {
	switch r.Intn(10) {
	case 0:
		return cty.NumberIntVal(r.Int63n(200) - 100)
	case 1:
		return cty.NumberIntVal(r.Int63() - r.Int63())
	case 2:
		return cty.NumberFloatVal(math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.Intn(0x7ff))<<52))
	case 3:
		return cty.NumberFloatVal(math.Ldexp(1, r.Intn(2000)-1074))
	case 4:
		return cty.NumberFloatVal(float64(r.Intn(100000)) / 100)
	case 5:
		return cty.MustParseNumberVal(fmt.Sprintf("%d.%d", r.Intn(1000), r.Intn(1000)))
	case 6:
		return cty.MustParseNumberVal(fmt.Sprintf("%de%d", r.Intn(1000)+1, r.Intn(80)-40))
	case 7:
		return cty.MustParseNumberVal(fmt.Sprintf("%d%018d", r.Int63n(1000)+1, r.Int63()))
	case 8:
		return cty.NumberIntVal(int64(r.Intn(3)))
	default:
		return cty.NumberFloatVal(r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20)))
	}
}

func randUnknown(r *rand.Rand, ty cty.Type) cty.Value {
	u := cty.UnknownVal(ty)
	if ty == cty.DynamicPseudoType || r.Intn(3) == 0 {
		return u
	}
	b := u.Refine()
	if r.Intn(2) == 0 {
		b = b.NotNull()
	}
	switch {
	case ty == cty.String && r.Intn(2) == 0:
		b = b.StringPrefixFull(words[r.Intn(len(words))])
	case ty == cty.Number && r.Intn(2) == 0:
		lo := r.Int63n(100) - 50
		b = b.NumberRangeLowerBound(cty.NumberIntVal(lo), r.Intn(2) == 0)
		if r.Intn(2) == 0 {
			b = b.NumberRangeUpperBound(cty.NumberFloatVal(float64(lo)+0.5+float64(r.Intn(100))), r.Intn(2) == 0)
		}
	case ty.IsCollectionType() && r.Intn(2) == 0:
		lo := r.Intn(3)
		b = b.CollectionLengthLowerBound(lo)
		if r.Intn(2) == 0 {
			b = b.CollectionLengthUpperBound(lo + 1 + r.Intn(5))
		}
	}
	return b.NewValue()
}

func randValue(r *rand.Rand, ty cty.Type, depth int) cty.Value {
	switch r.Intn(14) {
	case 0:
		return cty.NullVal(ty)
	case 1:
		return randUnknown(r, ty)
	}
	if ty == cty.DynamicPseudoType {
		inner := randType(r, 1)
		return randValue(r, inner, depth)
	}
	switch {
	case ty == cty.String:
		return cty.StringVal(words[r.Intn(len(words))])
	case ty == cty.Number:
		return randNumber(r)
	case ty == cty.Bool:
		return cty.BoolVal(r.Intn(2) == 0)
	case ty.IsListType(), ty.IsSetType():
		n := r.Intn(5)
		if n == 0 {
			if ty.IsListType() {
				return cty.ListValEmpty(ty.ElementType())
			}
			return cty.SetValEmpty(ty.ElementType())
		}
		vals := make([]cty.Value, n)
		ety := ty.ElementType()
		if ety == cty.DynamicPseudoType {
			// Collection elements must share one type, so pick it once.
			ety = randType(r, 1)
		}
		for i := range vals {
			vals[i] = randValue(r, ety, depth-1)
		}
		if ty.IsListType() {
			return cty.ListVal(vals)
		}
		return cty.SetVal(vals)
	case ty.IsMapType():
		n := r.Intn(4)
		if n == 0 {
			return cty.MapValEmpty(ty.ElementType())
		}
		ety := ty.ElementType()
		if ety == cty.DynamicPseudoType {
			ety = randType(r, 1)
		}
		vals := map[string]cty.Value{}
		for i := 0; i < n; i++ {
			vals[words[r.Intn(len(words))]] = randValue(r, ety, depth-1)
		}
		return cty.MapVal(vals)
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		if len(etys) == 0 {
			return cty.EmptyTupleVal
		}
		vals := make([]cty.Value, len(etys))
		for i, et := range etys {
			vals[i] = randValue(r, et, depth-1)
		}
		return cty.TupleVal(vals)
	default:
		atys := ty.AttributeTypes()
		if len(atys) == 0 {
			return cty.EmptyObjectVal
		}
		// Sorted, so the generator draws random numbers in the same order every run.
		names := make([]string, 0, len(atys))
		for k := range atys {
			names = append(names, k)
		}
		sort.Strings(names)
		vals := map[string]cty.Value{}
		for _, k := range names {
			vals[k] = randValue(r, atys[k], depth-1)
		}
		return cty.ObjectVal(vals)
	}
}

// safeRT records a random case, skipping values go-cty itself cannot build
// (it panics on some combinations, such as sets of mixed dynamic element types).
func safeRT(name string, mk func() (cty.Value, cty.Type)) {
	defer func() {
		if p := recover(); p != nil {
			skipped++
		}
	}()
	v, ty := mk()
	rt(name, v, ty)
}

var skipped int

func randomCases() {
	r := rand.New(rand.NewSource(20240601))
	for i := 0; i < 400; i++ {
		safeRT(fmt.Sprintf("random %03d", i), func() (cty.Value, cty.Type) {
			ty := randType(r, 3)
			return randValue(r, ty, 3), ty
		})
	}
	// Sets of objects and of numbers are where go-cty's ordering rules bite.
	setT := cty.Set(cty.Object(map[string]cty.Type{"n": cty.Number, "s": cty.String, "l": cty.List(cty.Bool)}))
	for i := 0; i < 60; i++ {
		safeRT(fmt.Sprintf("random set of objects %02d", i), func() (cty.Value, cty.Type) {
			n := 1 + r.Intn(8)
			vals := make([]cty.Value, n)
			for j := range vals {
				vals[j] = randValue(r, setT.ElementType(), 2)
			}
			return cty.SetVal(vals), setT
		})
		safeRT(fmt.Sprintf("random set of numbers %02d", i), func() (cty.Value, cty.Type) {
			n := 1 + r.Intn(8)
			vals := make([]cty.Value, n)
			for j := range vals {
				vals[j] = randNumber(r)
			}
			return cty.SetVal(vals), cty.Set(cty.Number)
		})
	}
	// Doubles of every shape, for the shortest-digits printing go-cty uses in JSON.
	for i := 0; i < 300; i++ {
		var f float64
		switch i % 3 {
		case 0:
			f = math.Float64frombits(r.Uint64())
		case 1:
			f = math.Ldexp(1, r.Intn(2098)-1074)
		default:
			f = math.Pow(10, float64(r.Intn(600)-300)) * (1 + float64(r.Intn(3)-1)*1e-16)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		rt(fmt.Sprintf("random float %03d %g", i, f), cty.NumberFloatVal(f), cty.Number)
	}
}
