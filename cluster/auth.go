package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// The bus is locked: the embedded NATS server lets in only the nodes it is
// given credentials for, and each node may use only its own subjects
// (docs/scaling.md, "Locking the bus").

// Credential is how one node proves who it is to an embedded NATS server:
// by its nkey (the server knows the public key; the node signs a
// challenge with its seed, which never travels), or by a password.
type Credential struct {
	// Node is the node's name (Options.Name).
	Node string
	// Nkey is the node's public nkey ("U…").
	Nkey string
	// Password is the node's password, for a node signing in with one
	// rather than an nkey.
	Password string
}

// NewCredential makes a new nkey for a node: its credential (the public
// key) and its seed, the secret the node signs in with (SeedOption).
func NewCredential(node string) (Credential, []byte, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return Credential{}, nil, err
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return Credential{}, nil, err
	}
	seed, err := kp.Seed()
	if err != nil {
		return Credential{}, nil, err
	}
	return Credential{Node: node, Nkey: pub}, seed, nil
}

// SeedOption signs a node in with the seed of its nkey.
func SeedOption(seed []byte) (nats.Option, error) {
	kp, err := nkeys.FromSeed(seed)
	if err != nil {
		return nil, fmt.Errorf("cluster: not an nkey seed: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, err
	}
	return nats.Nkey(pub, kp.Sign), nil
}

// NodeKeys returns the credentials of the named nodes from a folder of
// keys: NAME.nk holds a node's seed, NAME.pub its public key alone (for a
// node whose seed is kept elsewhere). A node with neither gets a new key,
// its seed written to NAME.nk, readable by its owner only: copy that file
// to the node and start it with --nats-nkey. It also returns the seed of
// each node whose seed is in the folder.
func NodeKeys(dir string, nodes []string) ([]Credential, map[string][]byte, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("cluster: the folder of keys: %w", err)
	}
	var creds []Credential
	seeds := map[string][]byte{}
	for _, node := range nodes {
		if !validName.MatchString(node) {
			return nil, nil, fmt.Errorf("cluster: node name %q: use letters, digits, '-' and '_'", node)
		}
		seedFile, pubFile := filepath.Join(dir, node+".nk"), filepath.Join(dir, node+".pub")
		if pub, err := os.ReadFile(pubFile); err == nil {
			key := strings.TrimSpace(string(pub))
			if !nkeys.IsValidPublicUserKey(key) {
				return nil, nil, fmt.Errorf("cluster: %s does not hold a user's public nkey (U…)", pubFile)
			}
			creds = append(creds, Credential{Node: node, Nkey: key})
			continue
		}
		seed, err := os.ReadFile(seedFile)
		if errors.Is(err, os.ErrNotExist) {
			if _, seed, err = NewCredential(node); err != nil {
				return nil, nil, err
			}
			if err := os.WriteFile(seedFile, append(seed, '\n'), 0o600); err != nil {
				return nil, nil, fmt.Errorf("cluster: writing node %s's key: %w", node, err)
			}
		} else if err != nil {
			return nil, nil, fmt.Errorf("cluster: node %s's key: %w", node, err)
		}
		seed = []byte(strings.TrimSpace(string(seed)))
		kp, err := nkeys.FromSeed(seed)
		if err != nil {
			return nil, nil, fmt.Errorf("cluster: %s does not hold an nkey seed (SU…): %w", seedFile, err)
		}
		pub, _ := kp.PublicKey()
		creds = append(creds, Credential{Node: node, Nkey: pub})
		seeds[node] = seed
	}
	return creds, seeds, nil
}

// nodePermissions are what a node may do on the bus: send to any node
// (requests, frames), receive only its own subjects and its own replies,
// answer only the requests it received, and use the leases' bucket as a
// key-value store (read, create, update and delete keys), never delete,
// purge or change the bucket itself.
func nodePermissions(node, bucket string) *server.Permissions {
	stream := "KV_" + bucket
	return &server.Permissions{
		Publish: &server.SubjectPermission{
			Allow: []string{
				subjectPrefix + "*.>",
				"$JS.API.STREAM.INFO." + stream,
				"$JS.API.STREAM.CREATE." + stream,
				"$JS.API.DIRECT.GET." + stream + ".>",
				"$KV." + bucket + ".m.>",
				"$KV." + bucket + ".x.>",
			},
			Deny: []string{"$JS.API.STREAM.DELETE.>", "$JS.API.STREAM.PURGE.>", "$JS.API.STREAM.UPDATE.>"},
		},
		Subscribe: &server.SubjectPermission{
			Allow: []string{subjectPrefix + node + ".>", inboxPrefix(node) + ".>", "$KV." + bucket + ".>"},
		},
		// Replies to the requests it received (MaxMsgs 0: one each).
		Response: &server.ResponsePermission{},
	}
}

// inboxPrefix is where a node's replies come: its own, so that no other
// node may read them.
func inboxPrefix(node string) string { return "_INBOX." + node }

// users are the embedded server's users: one per node, each with its
// own permissions.
func users(creds []Credential, bucket string) ([]*server.User, []*server.NkeyUser, error) {
	var us []*server.User
	var ns []*server.NkeyUser
	seen := map[string]bool{}
	for _, c := range creds {
		if !validName.MatchString(c.Node) {
			return nil, nil, fmt.Errorf("cluster: node name %q: use letters, digits, '-' and '_'", c.Node)
		}
		if seen[c.Node] {
			return nil, nil, fmt.Errorf("cluster: node %s is given twice", c.Node)
		}
		seen[c.Node] = true
		perms := nodePermissions(c.Node, bucket)
		switch {
		case c.Nkey != "" && c.Password == "":
			if !nkeys.IsValidPublicUserKey(c.Nkey) {
				return nil, nil, fmt.Errorf("cluster: node %s: %q is not a user's public nkey (U…)", c.Node, c.Nkey)
			}
			ns = append(ns, &server.NkeyUser{Nkey: c.Nkey, Permissions: perms})
		case c.Password != "" && c.Nkey == "":
			us = append(us, &server.User{Username: c.Node, Password: c.Password, Permissions: perms})
		default:
			return nil, nil, fmt.Errorf("cluster: node %s: give it an nkey or a password (one of them)", c.Node)
		}
	}
	return us, ns, nil
}
