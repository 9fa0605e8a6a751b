package config

import "runtime"

const isWindows = runtime.GOOS == "windows"
