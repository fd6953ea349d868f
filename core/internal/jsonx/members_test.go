package jsonx

import "testing"

// TestScanMembersCompactsEveryValue: a member's value comes back without
// insignificant white space wherever the space is, including before the
// colon of a nested key (which the fuzzer found once, at FuzzValid
// 4a1123072b465600).
func TestScanMembersCompactsEveryValue(t *testing.T) {
	cases := map[string]string{
		`{"x":{"a" :1}}`:             `{"a":1}`,
		`{"x":{"a":1 , "b" : [2 ]}}`: `{"a":1,"b":[2]}`,
		`{"x":[ {"k"	:"v"}]}`:        `[{"k":"v"}]`,
		`{"x":{"a":1}}`:              `{"a":1}`,
		`{"x": "a b" }`:              `"a b"`,
	}
	for in, want := range cases {
		members, err := ScanMembers[RawMessage]([]byte(in), false, nil)
		if err != nil {
			t.Fatalf("ScanMembers(%s): %v", in, err)
		}
		if got := string(members["x"]); got != want {
			t.Errorf("ScanMembers(%s)[x] = %s, want %s", in, got, want)
		}
	}
}
