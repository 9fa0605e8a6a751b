//go:build !unix

package pathpolicy

// openNonblock: Windows has no FIFOs on the file namespace; named pipes
// (\\.\pipe\…) are refused by the stat before open.
const openNonblock = 0
