// Package modelid reads what a model's id says about the model. The request
// transports and the local server finder (transport/localserver) both pick
// a chat model from a server's list, and both must pass over the embedding
// models a server lists beside its chat models.
package modelid

import "strings"

// IsEmbedding says whether a model id names an embedding model,
// which turns text into vectors and cannot answer a chat: nomic-embed-text,
// mxbai-embed-large, text-embedding-3-small, bge-m3, all-minilm,
// snowflake-arctic-embed and the like.
func IsEmbedding(id string) bool {
	m := strings.ToLower(id)
	if i := strings.LastIndexAny(m, "/"); i >= 0 {
		m = m[i+1:] // an org/ prefix (BAAI/bge-m3)
	}
	switch {
	case strings.Contains(m, "embed"),
		strings.HasPrefix(m, "bge-"), strings.HasPrefix(m, "bge:"), m == "bge",
		strings.HasPrefix(m, "all-minilm"), strings.HasPrefix(m, "paraphrase-"),
		strings.HasPrefix(m, "gte-"), strings.HasPrefix(m, "e5-"), strings.HasPrefix(m, "multilingual-e5"),
		strings.Contains(m, "rerank"):
		return true
	}
	return false
}
