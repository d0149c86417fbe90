terraform {
  required_providers {
    local = {
      source = "hashicorp/local"
    }
  }
}

variable "colors" {
  type    = list(string)
  default = ["red", "blue", "red"]
}

locals {
  color_set = toset(var.colors)
  palette = {
    red  = "#f00"
    blue = "#00f"
  }
}

resource "local_file" "motd" {
  filename = "out/motd.txt"
  content  = "hello\n"
}

resource "local_file" "direct" {
  for_each = toset(var.colors)
  filename = "out/direct-${each.key}.txt"
  content  = "${each.value}\n"
}

resource "local_file" "color" {
  for_each = local.color_set
  filename = "out/color-${each.key}.txt"
  content  = "${each.value}\n"
}

resource "local_file" "swatch" {
  for_each = local.palette
  filename = "out/swatch-${each.key}.txt"
  content  = "${each.key}=${each.value}\n"
}

resource "local_file" "worker" {
  count    = 2
  filename = "out/worker-${count.index}.txt"
  content  = "worker ${count.index} after ${local_file.motd.id}\n"
}
