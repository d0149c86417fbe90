output "swatch_files" {
  value = { for name, f in local_file.swatch : name => f.filename }
}

output "swatch_contents" {
  value = { for name, f in local_file.swatch : name => f.content }
}

output "worker_contents" {
  value = local_file.worker[*].content
}

output "color_files" {
  value = { for name, f in local_file.color : name => f.filename }
}
