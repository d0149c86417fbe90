
output "swatchFiles" {
  value = { for name, f in swatch : name => f.filename }
}

output "swatchContents" {
  value = { for name, f in swatch : name => f.content }
}

output "workerContents" {
  value = worker[*].content
}

output "colorFiles" {
  value = { for name, f in color : name => f.filename }
}
