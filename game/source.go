package game

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Source is where a game is read from: its main file (or folder) and the
// files it refers to (a skirmish's combatants, a bundle's parts), in a
// folder on disk, in a zip archive or in memory. It keeps every file a
// loader reads, so that the game can be stored whole (Archive) and loaded
// again from that alone, as a server does with every match's game.
//
// Every read is bounded by the source's Limits, and names that climb out
// of the source (.., absolute paths, backslashes) are refused: a source
// may come from a stranger.
type Source struct {
	fsys   fs.FS
	main   string // the main file's name in fsys, or "." for a folder
	label  string // how diagnostics name the root ("examples/skirmish", "bundle.zip")
	limits Limits
	zipped bool

	read  map[string][]byte
	order []string
	total int64
	ctx   context.Context
}

// WithContext makes the source carry a context: loaders stop their work
// (validation, suggestions) when it ends, as a server does when the
// client that sent a file has gone.
func (s *Source) WithContext(ctx context.Context) *Source {
	s.ctx = ctx
	return s
}

// Context is the source's context (context.Background if none was given).
func (s *Source) Context() context.Context {
	if s.ctx == nil {
		return context.Background()
	}
	return s.ctx
}

// Limits bound what a source may read. Zero members take the defaults.
type Limits struct {
	// File is the largest file, in bytes (after inflation for an archive
	// entry).
	File int64
	// Total is the most bytes all files read may add up to.
	Total int64
	// Entries is the most entries an archive may have.
	Entries int
	// Ratio is the largest ratio of an archive entry's inflated size to
	// its compressed size.
	Ratio int64
}

// DefaultLimits are the limits of sources read from the command line. A
// server reads its uploads with its own, smaller ones.
var DefaultLimits = Limits{File: 32 << 20, Total: 64 << 20, Entries: 1000, Ratio: 200}

func (l Limits) withDefaults() Limits {
	if l.File <= 0 {
		l.File = DefaultLimits.File
	}
	if l.Total <= 0 {
		l.Total = DefaultLimits.Total
	}
	if l.Entries <= 0 {
		l.Entries = DefaultLimits.Entries
	}
	if l.Ratio <= 0 {
		l.Ratio = DefaultLimits.Ratio
	}
	return l
}

// mainComment starts the comment of an archive made by Archive, naming its
// main file; an archive without it is read as a folder (a party bundle).
const mainComment = "tabula main: "

// Open returns the source of a file, a folder or a zip archive on disk.
func Open(p string, limits Limits) (*Source, error) {
	limits = limits.withDefaults()
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return &Source{fsys: os.DirFS(p), main: ".", label: p, limits: limits}, nil
	}
	if info.Size() > limits.File {
		return nil, &LimitError{What: p, Limit: limits.File, Unit: "bytes"}
	}
	if isZipName(p) {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return FromBytes(p, data, limits)
	}
	return &Source{fsys: os.DirFS(filepath.Dir(p)), main: filepath.Base(p), label: filepath.Dir(p), limits: limits}, nil
}

// OpenFS returns the source of a file (or folder, or zip archive) in a
// file system, such as the games embedded in the binary. label names the
// file system in diagnostics ("" for none).
func OpenFS(fsys fs.FS, name, label string, limits Limits) (*Source, error) {
	limits = limits.withDefaults()
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if label != "" {
		dir = path.Join(label, dir)
	}
	if info.IsDir() {
		sub, err := fs.Sub(fsys, name)
		if err != nil {
			return nil, err
		}
		return &Source{fsys: sub, main: ".", label: path.Join(dir, base), limits: limits}, nil
	}
	if info.Size() > limits.File {
		return nil, &LimitError{What: name, Limit: limits.File, Unit: "bytes"}
	}
	if isZipName(name) {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		return FromBytes(path.Join(dir, base), data, limits)
	}
	sub := fsys
	if d := path.Dir(name); d != "." {
		if sub, err = fs.Sub(fsys, d); err != nil {
			return nil, err
		}
	}
	return &Source{fsys: sub, main: base, label: dir, limits: limits}, nil
}

// FromBytes returns the source of a file held in memory (an upload, a
// stored game): a zip archive if the bytes are one, else a single file
// named name.
func FromBytes(name string, data []byte, limits Limits) (*Source, error) {
	limits = limits.withDefaults()
	if IsZip(data) {
		return fromZip(name, data, limits)
	}
	if int64(len(data)) > limits.File {
		return nil, &LimitError{What: name, Limit: limits.File, Unit: "bytes"}
	}
	base := path.Base(filepath.ToSlash(name))
	if base == "." || base == "/" || base == "" {
		base = "game.json"
	}
	dir := filepath.Dir(name)
	if dir == "." {
		dir = ""
	}
	s := &Source{fsys: memFS{base: data}, main: base, label: dir, limits: limits}
	return s, nil
}

// IsZip reports whether data is a zip archive.
func IsZip(data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06"))
}

func isZipName(p string) bool { return strings.EqualFold(filepath.Ext(p), ".zip") }

func fromZip(name string, data []byte, limits Limits) (*Source, error) {
	if int64(len(data)) > limits.Total {
		return nil, &LimitError{What: name, Limit: limits.Total, Unit: "bytes"}
	}
	// The archive's last record says how many entries it has: refuse too
	// many before the reader allocates a header for each.
	if n, ok := zipEntryCount(data); ok && n > limits.Entries {
		return nil, &LimitError{What: name, Limit: int64(limits.Entries), Unit: "entries"}
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable zip archive: %v", name, err)
	}
	if len(zr.File) > limits.Entries {
		return nil, &LimitError{What: name, Limit: int64(limits.Entries), Unit: "entries"}
	}
	z := &zipFS{files: map[string]*zip.File{}, limits: limits}
	var total uint64
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue // a folder entry
		}
		if err := CheckName(f.Name); err != nil {
			return nil, fmt.Errorf("%s: entry %q: %v", name, f.Name, err)
		}
		if f.UncompressedSize64 > uint64(limits.File) {
			return nil, &LimitError{What: name + ": entry " + f.Name, Limit: limits.File, Unit: "bytes"}
		}
		total += f.UncompressedSize64
		if total > uint64(limits.Total) {
			return nil, &LimitError{What: name + " (all entries inflated)", Limit: limits.Total, Unit: "bytes"}
		}
		if f.CompressedSize64 > 0 && f.UncompressedSize64/f.CompressedSize64 > uint64(limits.Ratio) {
			return nil, &LimitError{What: name + ": entry " + f.Name + " (inflated size / compressed size)", Limit: limits.Ratio, Unit: "times"}
		}
		if _, dup := z.files[f.Name]; dup {
			return nil, fmt.Errorf("%s: entry %q appears twice", name, f.Name)
		}
		z.files[f.Name] = f
	}
	main := "."
	if c, ok := strings.CutPrefix(zr.Comment, mainComment); ok {
		if err := CheckName(c); err != nil || z.files[c] == nil {
			return nil, fmt.Errorf("%s: the archive names its main file %q, which it does not hold", name, c)
		}
		main = c
	}
	return &Source{fsys: z, main: main, label: name, limits: limits, zipped: true}, nil
}

// zipEntryCount reads the number of entries from the end record of a zip
// archive (false if it has none, or defers to a zip64 record).
func zipEntryCount(data []byte) (int, bool) {
	const endLen = 22 // the end record without its comment
	lo := max(0, len(data)-endLen-0xffff)
	for i := len(data) - endLen; i >= lo; i-- {
		if data[i] == 'P' && bytes.HasPrefix(data[i:], []byte("PK\x05\x06")) {
			n := int(data[i+10]) | int(data[i+11])<<8
			return n, n != 0xffff
		}
	}
	return 0, false
}

// Entries lists the names of an archive's files, sorted, so that a
// loader can say what an archive holds when it lacks what it needs; nil
// for a source that is not an archive.
func (s *Source) Entries() []string {
	z, ok := s.fsys.(*zipFS)
	if !ok {
		return nil
	}
	return slices.Sorted(maps.Keys(z.files))
}

// CheckName refuses a file name that climbs out of a source: "..",
// absolute paths, backslashes, empty names.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("an empty file name")
	case strings.Contains(name, `\`):
		return errors.New(`file names use "/", not "\"`)
	case strings.HasPrefix(name, "/") || filepath.IsAbs(name) || (len(name) > 1 && name[1] == ':'):
		return errors.New("an absolute path; name files relative to the game")
	case !fs.ValidPath(name):
		return errors.New(`a path that leaves the game's folder (".." or an empty part)`)
	}
	return nil
}

// LimitError is a source that is larger than a limit allows.
type LimitError struct {
	What  string
	Limit int64
	Unit  string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s is too large: the limit is %d %s", e.What, e.Limit, e.Unit)
}

// Name is how the main file (or folder) is named to the user.
func (s *Source) Name() string { return s.Path(s.main) }

// Main is the main file's name inside the source ("." for a folder).
func (s *Source) Main() string { return s.main }

// IsDir reports whether the source is a folder (or an archive read as
// one), such as a party bundle.
func (s *Source) IsDir() bool { return s.main == "." }

// Path is how a file of the source is named in diagnostics: its path on
// disk, or the archive's name and the entry.
func (s *Source) Path(name string) string {
	if name == "." {
		if s.label == "" {
			return "."
		}
		return s.label
	}
	if s.label == "" {
		return name
	}
	if s.zipped {
		return s.label + "/" + name
	}
	return filepath.Join(s.label, filepath.FromSlash(name))
}

// Data reads the main file.
func (s *Source) Data() ([]byte, error) {
	if s.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not a file", s.Name())
	}
	return s.ReadFile(s.main)
}

// Resolve returns the name inside the source of a file that the file from
// refers to as ref (relative to from's folder), or an error if ref climbs
// out of the source.
func (s *Source) Resolve(from, ref string) (string, error) {
	if err := CheckName(ref); err != nil && !strings.HasPrefix(ref, "../") && !strings.HasPrefix(ref, "./") {
		return "", err
	}
	dir := path.Dir(from)
	if from == "." {
		dir = "."
	}
	name := path.Join(dir, ref)
	if err := CheckName(name); err != nil {
		return "", fmt.Errorf("%q leaves the game's folder: a game's files must be in its folder or below", ref)
	}
	return name, nil
}

// ReadFile reads a file of the source by its name inside it (as Resolve
// returns it), within the source's limits. Each file read is kept for
// Archive.
func (s *Source) ReadFile(name string) ([]byte, error) {
	if data, ok := s.read[name]; ok {
		return data, nil
	}
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	left := min(s.limits.File, s.limits.Total-s.total)
	data, err := io.ReadAll(io.LimitReader(f, left+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > left {
		if left < s.limits.File {
			return nil, &LimitError{What: s.Name() + " (all its files)", Limit: s.limits.Total, Unit: "bytes"}
		}
		return nil, &LimitError{What: s.Path(name), Limit: s.limits.File, Unit: "bytes"}
	}
	s.total += int64(len(data))
	if s.read == nil {
		s.read = map[string][]byte{}
	}
	s.read[name] = data
	s.order = append(s.order, name)
	return data, nil
}

// Exists reports whether the source has a file (or folder) of that name.
func (s *Source) Exists(name string) bool {
	if _, ok := s.read[name]; ok {
		return true
	}
	if CheckName(name) != nil && name != "." {
		return false
	}
	_, err := fs.Stat(s.fsys, name)
	return err == nil
}

// Files returns the names of the files read so far, in the order they
// were first read.
func (s *Source) Files() []string { return slices.Clone(s.order) }

// Archive returns the game as read so far, to be stored and given to
// FromBytes later: the main file's bytes alone when it is the only file
// read, else a zip archive of every file read that names its main file.
func (s *Source) Archive() []byte {
	if !s.IsDir() && len(s.order) == 1 && s.order[0] == s.main {
		return s.read[s.main]
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := slices.Sorted(slices.Values(s.order))
	for _, n := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate})
		if err == nil {
			_, err = w.Write(s.read[n])
		}
		if err != nil {
			panic("game: archiving into memory: " + err.Error()) // writing to a bytes.Buffer cannot fail
		}
	}
	if !s.IsDir() {
		zw.SetComment(mainComment + s.main)
	}
	if err := zw.Close(); err != nil {
		panic("game: archiving into memory: " + err.Error())
	}
	return buf.Bytes()
}

// memFS is a file system of one file.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	if name == "." {
		return &memDir{}, nil
	}
	data, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{Reader: bytes.NewReader(data), name: name, size: int64(len(data))}, nil
}

type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{name: f.name, size: f.size}, nil }
func (f *memFile) Close() error               { return nil }

type memDir struct{}

func (memDir) Stat() (fs.FileInfo, error) { return memInfo{name: ".", dir: true}, nil }
func (memDir) Read([]byte) (int, error)   { return 0, io.EOF }
func (memDir) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

// zipFS reads the entries of an archive, refusing any that inflates to
// more than it declared.
type zipFS struct {
	files  map[string]*zip.File
	limits Limits
}

// Stat tells an entry's size from its header, without inflating it.
func (z *zipFS) Stat(name string) (fs.FileInfo, error) {
	if name == "." {
		return memInfo{name: ".", dir: true}, nil
	}
	f, ok := z.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return memInfo{name: path.Base(name), size: int64(f.UncompressedSize64)}, nil
}

func (z *zipFS) Open(name string) (fs.File, error) {
	if name == "." {
		return &memDir{}, nil
	}
	f, ok := z.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	// Read at most what the entry declared, and one byte more to catch a
	// header that lies about it.
	data, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	rc.Close()
	// The zip reader itself refuses to read an entry past its declared
	// size (a format error).
	if uint64(len(data)) > f.UncompressedSize64 || errors.Is(err, zip.ErrFormat) {
		return nil, fmt.Errorf("%s inflates to more than its declared %d bytes", name, f.UncompressedSize64)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &memFile{Reader: bytes.NewReader(data), name: path.Base(name), size: int64(len(data))}, nil
}
