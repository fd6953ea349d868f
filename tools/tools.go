//go:build tools

// Package tools pins the versions of the developer tools this repo builds
// from source (see wasm_test.sh). It is never compiled into the library.
//
// wasmbrowsertest v0.11.0 is built against chromedp v0.16.0 instead of the
// chromedp it requires itself: the older one prints "could not unmarshal
// event: unknown IPAddressSpace value" errors with current Chromium.
// chromedp v0.23+ does not compile with wasmbrowsertest v0.11.0.
package tools

import (
	_ "github.com/agnivade/wasmbrowsertest"
)
