// Package imageproc prepares images for a model the way goose's
// image_processor and screen_capture tools do: images larger than 1024 px on
// either side are scaled down keeping their aspect ratio, the alpha channel
// is dropped and the result is encoded as JPEG at quality 85. It also holds
// goose's fix for macOS screenshot file names, which contain a narrow
// no-break space (U+202F) before AM/PM.
//
// Decoding covers PNG, JPEG and GIF (standard library) and WebP, BMP and
// TIFF (golang.org/x/image); everything is pure Go.
package imageproc
