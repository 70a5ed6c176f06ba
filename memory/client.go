// The links a Memory sends its requests over: to the store in this process when it owns it, or to the owner's
// socket.

package memory

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// sendTimeout bounds one write to the owner's socket; an owner that stops reading is given up on.
const sendTimeout = 5 * time.Second

// link carries requests to the owner; replies come back through the Memory's complete.
type link interface {
	send(req *wireRequest) error
	// broken is closed when the link fails; its unanswered requests must then be sent again on another.
	broken() <-chan struct{}
	close()
}

// localLink hands requests to the owner in this process.
type localLink struct {
	o        *owner
	complete func(wireReply)
}

func (l *localLink) send(req *wireRequest) error {
	l.o.handle(req, l.complete)
	return nil
}

func (l *localLink) broken() <-chan struct{} { return nil }
func (l *localLink) close()                  {}

// socketLink is a client's connection to the owner.
type socketLink struct {
	c    net.Conn
	mu   sync.Mutex // serialises writes
	w    *bufio.Writer
	enc  *json.Encoder
	dead chan struct{}
	once sync.Once
}

// dial connects to the owner's socket and greets it; it fails when no owner answers.
func dial(sock string, complete func(wireReply)) (*socketLink, error) {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return nil, err
	}
	l := &socketLink{c: c, w: bufio.NewWriter(c), dead: make(chan struct{})}
	l.enc = json.NewEncoder(l.w)
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), maxRequest)
	if err := l.send(&wireRequest{Op: opHello, Version: protocolVersion}); err != nil {
		c.Close()
		return nil, err
	}
	c.SetReadDeadline(time.Now().Add(helloTimeout))
	if !sc.Scan() {
		c.Close()
		return nil, fmt.Errorf("no answer to hello: %v", sc.Err())
	}
	var r wireReply
	if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.err("") != nil {
		c.Close()
		return nil, fmt.Errorf("hello refused: %v %v", err, r.err(""))
	}
	c.SetReadDeadline(time.Time{})
	go l.readLoop(sc, complete)
	return l, nil
}

func (l *socketLink) readLoop(sc *bufio.Scanner, complete func(wireReply)) {
	defer l.close()
	for sc.Scan() {
		var r wireReply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return
		}
		complete(r)
	}
}

func (l *socketLink) send(req *wireRequest) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.dead:
		return errors.New("the connection to the owner is closed")
	default:
	}
	l.c.SetWriteDeadline(time.Now().Add(sendTimeout))
	if err := l.enc.Encode(req); err != nil {
		l.close()
		return err
	}
	if err := l.w.Flush(); err != nil {
		l.close()
		return err
	}
	return nil
}

func (l *socketLink) broken() <-chan struct{} { return l.dead }

func (l *socketLink) close() {
	l.once.Do(func() {
		close(l.dead)
		l.c.Close()
	})
}
