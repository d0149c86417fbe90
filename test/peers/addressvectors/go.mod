module example.com/addressvectors

go 1.25.0

require github.com/hashicorp/terraform-registry-address v0.5.0

require (
	github.com/hashicorp/terraform-svchost v0.2.1 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)
