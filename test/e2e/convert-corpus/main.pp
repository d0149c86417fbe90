config "colors" "list(string)" {
  default = ["red", "blue", "red"]
}
colorSet = invoke("std:index:toset", {
  input = colors
}).result
palette = {
  red  = "#f00"
  blue = "#00f"
}

resource "motd" "local:index/file:File" {
  filename = "out/motd.txt"
  content  = "hello\n"
}

resource "direct" "local:index/file:File" {
  options {
    range = { for entry in colors : entry => entry }
  }
  filename = "out/direct-${range.key}.txt"
  content  = "${range.value}\n"
}

resource "color" "local:index/file:File" {
  options {
    range = colorSet
  }
  filename = "out/color-${range.key}.txt"
  content  = "${range.value}\n"
}

resource "swatch" "local:index/file:File" {
  options {
    range = palette
  }
  filename = "out/swatch-${range.key}.txt"
  content  = "${range.key}=${range.value}\n"
}

resource "worker" "local:index/file:File" {
  options {
    range = 2
  }
  filename = "out/worker-${range.value}.txt"
  content  = "worker ${range.value} after ${motd.id}\n"
}
