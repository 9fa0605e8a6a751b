# Conveniences over the plain commands in the README; none of them is required.

# build goose-acp and its interactive configure (no cgo) and its analyze helper beside them (cgo: tree-sitter is C) into bin/
build:
    CGO_ENABLED=0 go build -o bin/goose-acp ./cmd/goose-acp
    CGO_ENABLED=0 go build -o bin/goose-acp-configure ./cmd/goose-acp-configure
    CGO_ENABLED=1 go build -o bin/goose-acp-analyze ./cmd/goose-acp-analyze

# serve ACP on stdio (what an editor spawns), from bin/ so analyze finds its helper
run *ARGS: build
    bin/goose-acp {{ARGS}}

# the README's test command
test:
    go test -race -count=1 ./...

# only the process-level end-to-end tests (needs node/npm for the Node harnesses)
e2e:
    go test -race -count=1 ./e2e/...

# every benchmark, 10 runs each; quote medians (benchstat bench.txt) rather than single runs
bench:
    go test -run '^$' -bench . -benchmem -count 10 ./... | tee bench.txt

# release archives (linux/darwin/windows), SHA256SUMS, agent.json and NOTES.md into dist/VERSION
release VERSION *ARGS:
    go run ./cmd/release -version {{VERSION}} {{ARGS}}

# formatting, vet and the builds CI checks (the windows cgo build needs gcc-mingw-w64-x86-64)
lint:
    test -z "$(gofmt -l $(git ls-files '*.go'))"
    go vet ./...
    CGO_ENABLED=0 go vet ./...
    CGO_ENABLED=0 go build ./...
    GOOS=darwin CGO_ENABLED=0 go build ./...
    GOOS=windows CGO_ENABLED=0 go build ./...
    CGO_ENABLED=0 go test -count=1 -run TestAnalyzeWithoutCgo ./developer/analyze/engine/
    GOOS=windows CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc go build -o bin/goose-acp-analyze.exe ./cmd/goose-acp-analyze

fmt:
    gofmt -w $(git ls-files '*.go')
