package main

import (
	"fmt"
	"os"
)

const greeting = "hello"

type Server struct {
	name string
}

func (s *Server) Start() error {
	return helper(s.name)
}

func helper(name string) error {
	fmt.Println(greeting, name)
	return nil
}

func main() {
	s := &Server{name: "x"}
	if err := s.Start(); err != nil {
		os.Exit(1)
	}
	helper("a")
	helper("b")
	helper("c")
}
