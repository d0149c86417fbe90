// The Node.js host: what pulumi-language-nodejs serves.
package main

type nodejsHost struct{ *host }
