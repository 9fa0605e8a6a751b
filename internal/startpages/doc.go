// Package startpages lets a process give back the pages of its own
// executable that only start-up touched. It imports nothing of ours.
//
// A Go binary's package initialisation runs code from all over the text
// (one init function per package, each in its package's part of the text)
// and reads type data and the function table for it; this kernel maps a
// whole page-cache folio (64 KiB for an installed binary) per page fault,
// so init alone leaves most of a large binary's code resident though the
// ACP path never runs it again; the command's own start-up (flags, logger,
// configuration) adds more. Release, called once start-up is done (goose-acp
// calls it as it starts serving ACP or `serve`), unmaps the executable's
// read-only segments (code, rodata, pclntab) with
// MADV_DONTNEED: they are clean, file-backed and stay in the page cache, so
// what the process runs next faults back in as minor faults, and the
// resident set (and its peak, VmHWM) holds only what is used after
// start-up. Writable segments (data, bss, the relocated RELRO part) are
// never touched. It does nothing when a debugger traces the process (its
// breakpoints live in privately copied text pages), on other systems, and
// when GOOSE_ACP_KEEP_START_PAGES is set.
package startpages
