package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/attestari/attestari/internal/corpus"
)

// pyPack is `attestari-probe py-pack`, behind scripts/corpus-python-pack.sh:
// it packs every server of testdata/corpus-python/servers.json from a
// directory of bare git mirrors into sdist-shaped archives under
// $ATTESTARI_HOME/corpus-python and checks each against the pinned SHA-256.
// -update writes the packed digests into the list instead (when a server is
// added or re-pinned).
func pyPack(ctx context.Context, args []string) error {
	home := os.Getenv("ATTESTARI_HOME")
	if home == "" {
		home = "./var"
	}
	fs := flag.NewFlagSet("py-pack", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus-python/servers.json", "Python corpus list")
	mirrors := fs.String("mirrors", "", "directory of bare git mirrors, one <owner>+<name>/repo (or <owner>+<name>.git) per repository")
	dir := fs.String("dir", filepath.Join(home, "corpus-python"), "directory to write the archives into")
	update := fs.Bool("update", false, "record the packed SHA-256 in the list instead of checking it")
	_ = fs.Parse(args)
	if *mirrors == "" {
		return errors.New("py-pack: -mirrors is required")
	}
	l, err := corpus.LoadPyList(*list)
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range corpus.PackAll(ctx, l, *mirrors, *dir, *update) {
		if r.Err != nil {
			failed++
			log.Printf("py-pack: %s: %v", r.Key, r.Err)
			continue
		}
		log.Printf("py-pack: %s %s %s", r.Key, r.SHA256, r.Path)
	}
	if *update {
		if err := corpus.WriteJSON(*list, l); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("py-pack: %d of %d servers not packed", failed, len(l.Servers))
	}
	return nil
}
