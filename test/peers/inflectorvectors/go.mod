module example.com/inflectorvectors

go 1.25.11

require github.com/pulumi/inflector v0.2.1
