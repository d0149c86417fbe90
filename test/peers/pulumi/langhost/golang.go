// The Go host: what pulumi-language-go serves.
package main

type goHost struct{ *host }
