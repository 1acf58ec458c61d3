package game_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
)

// bitWriter writes a deflate stream: fields least significant bit first,
// Huffman codes most significant bit first.
type bitWriter struct {
	buf   []byte
	acc   uint64
	nbits uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.nbits
	w.nbits += n
	for w.nbits >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nbits -= 8
	}
}

func (w *bitWriter) code(c uint64, n uint) {
	var r uint64
	for i := range n {
		r |= (c >> i & 1) << (n - 1 - i)
	}
	w.bits(r, n)
}

// zeroBomb returns a deflate stream of one fixed-Huffman block inflating to
// 1 + 258*copies zero bytes: a literal 0, then copies of "258 bytes from
// 1 back" (13 bits each), the densest deflate allows.
func zeroBomb(copies int) []byte {
	w := &bitWriter{buf: make([]byte, 0, copies*13/8+16)}
	w.bits(1, 1) // the last block
	w.bits(1, 2) // fixed Huffman codes
	w.code(0x30, 8)
	for range copies {
		w.code(0xc5, 8) // length 258 (code 285)
		w.code(0, 5)    // distance 1 (code 0)
	}
	w.code(0, 7) // end of block
	w.bits(0, 7) // flush the last byte
	return w.buf
}

// zeroCRC is the CRC-32 of n zero bytes.
func zeroCRC(n int64) uint32 {
	zeros := make([]byte, 1<<20)
	var crc uint32
	for ; n > 0; n -= int64(len(zeros)) {
		crc = crc32.Update(crc, crc32.IEEETable, zeros[:min(n, int64(len(zeros)))])
	}
	return crc
}

// rawZip writes an archive of one deflated entry from its compressed bytes
// and the size its header declares.
func rawZip(t testing.TB, name string, compressed []byte, crc uint32, declared uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(compressed)), UncompressedSize64: declared})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(compressed)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// manyEntries is an archive of n empty files.
func manyEntries(t testing.TB, n int) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("f%d.json", i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	return buf.Bytes()
}

// deflated is an archive of one entry, deflated at the best compression.
func deflated(t testing.TB, name string, data []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestCompression) })
	w, _ := zw.Create(name)
	w.Write(data)
	zw.Close()
	return buf.Bytes()
}

// TestHostileArchives: archives crafted to exhaust a reader are refused,
// with an error that says which limit or rule they break, before anything
// large is inflated: each case reads the archive and every entry it
// offers, within a megabyte of allocation.
func TestHostileArchives(t *testing.T) {
	for _, c := range hostileArchives(t) {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := readAll(c.name+".zip", c.data)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error saying %q", err, c.want)
			}
			if !strings.Contains(err.Error(), c.name+".zip") {
				t.Errorf("%v does not name the archive", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("refusing it allocated %d bytes", alloc)
			}
		})
	}
}

// BenchmarkHostileArchives measures refusing each crafted archive.
func BenchmarkHostileArchives(b *testing.B) {
	for _, c := range hostileArchives(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if readAll("x.zip", c.data) == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}

// hostileArchive is an archive crafted to exhaust a reader, and what its
// refusal says.
type hostileArchive struct {
	name string
	data []byte
	want string
}

func hostileArchives(t testing.TB) []hostileArchive {
	const copies = 3_900_000 // 1,006,200,001 bytes of zeros, about 6.3 MB deflated
	bomb := zeroBomb(copies)
	size := uint64(1 + 258*copies)
	crc := zeroCRC(int64(size))
	return []hostileArchive{
		{"1 GB entry, honest header", rawZip(t, "board.json", bomb, crc, size),
			"entry board.json is too large: the limit is 33554432 bytes"},
		{"1 GB entry, header says 100 bytes", rawZip(t, "board.json", bomb, crc, 100),
			"board.json inflates to more than its declared 100 bytes"},
		{"high compression ratio", deflated(t, "board.json", make([]byte, 4<<20)),
			"entry board.json (inflated size / compressed size) is too large: the limit is 200 times"},
		{"parent folder", zipOf(t, "", "../board.json", "{}"),
			`entry "../board.json": a path that leaves the game's folder (".." or an empty part)`},
		{"parent folder inside", zipOf(t, "", "parts/../../board.json", "{}"),
			`entry "parts/../../board.json": a path that leaves the game's folder`},
		{"absolute path", zipOf(t, "", "/etc/board.json", "{}"),
			`entry "/etc/board.json": an absolute path; name files relative to the game`},
		{"drive letter", zipOf(t, "", "C:/board.json", "{}"),
			`entry "C:/board.json": an absolute path`},
		{"backslash", zipOf(t, "", `parts\board.json`, "{}"),
			`entry "parts\\board.json": file names use "/", not "\"`},
		{"30,000 entries", manyEntries(t, 30_000),
			"is too large: the limit is 1000 entries"},
		{"the same entry twice", zipOf(t, "", "board.json", "{}", "board.json", "{}"),
			`entry "board.json" appears twice`},
	}
}

// readAll opens an archive as a command-line source and reads each of its
// entries, as a loader would.
func readAll(name string, data []byte) error {
	src, err := game.FromBytes(name, data, game.Limits{})
	if err != nil {
		return err
	}
	for _, e := range src.Entries() {
		if _, err := src.ReadFile(e); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return errors.New("accepted")
}
