// The Python host: what pulumi-language-python serves.
package main

type pythonHost struct{ *host }
