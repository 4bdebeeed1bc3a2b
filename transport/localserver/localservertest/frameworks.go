package localservertest

import (
	"io"
	"net/http"
)

// How the servers' web frameworks answer what no handler of theirs takes,
// and how they send a handler's exception: the fakes answer the same.
// Read in github.com/fastapi/fastapi fastapi/exception_handlers.py
// (http_exception_handler, request_validation_exception_handler), in
// github.com/encode/starlette starlette/routing.py (Router.not_found,
// Route.handle's 405) and starlette/middleware/errors.py
// (ServerErrorMiddleware.error_response), and in github.com/pallets/werkzeug
// src/werkzeug/exceptions.py (HTTPException.get_body, NotFound,
// MethodNotAllowed, InternalServerError) and src/werkzeug/serving.py
// (WSGIRequestHandler.server_version).

// fastAPINotFound is FastAPI's (Starlette's) answer to a path no route
// has; a route asked with another method is 405 {"detail":"Method Not
// Allowed"}.
func fastAPINotFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	io.WriteString(w, `{"detail":"Not Found"}`)
}

func fastAPIMethodNotAllowed(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusMethodNotAllowed)
	io.WriteString(w, `{"detail":"Method Not Allowed"}`)
}

// starletteServerError is what uvicorn sends when a FastAPI handler
// raises before its answer has begun: 500, text/plain.
func starletteServerError(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	io.WriteString(w, "Internal Server Error")
}

// fastAPIMissing is FastAPI's 422 for a missing body field.
func fastAPIMissing(w http.ResponseWriter, field string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnprocessableEntity)
	io.WriteString(w, `{"detail":[{"type":"missing","loc":["body",`+jsonString(field)+`],"msg":"Field required","input":null}]}`)
}

// werkzeugServer is the Server header of Flask's development server
// (app.run), which both Piper servers run on.
const werkzeugServer = "Werkzeug/3.0.3 Python/3.11.2"

// werkzeugError is Werkzeug's HTML error page: a Flask handler that
// raises is a 500, an unknown path a 404, a route asked with another
// method a 405.
func werkzeugError(w http.ResponseWriter, status int) {
	titles := map[int][2]string{
		http.StatusNotFound:            {"404 Not Found", "The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again."},
		http.StatusMethodNotAllowed:    {"405 Method Not Allowed", "The method is not allowed for the requested URL."},
		http.StatusInternalServerError: {"500 Internal Server Error", "The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application."},
	}
	t := titles[status]
	w.Header().Set("Server", werkzeugServer)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, "<!doctype html>\n<html lang=en>\n<title>"+t[0]+"</title>\n<h1>"+t[0][4:]+"</h1>\n<p>"+t[1]+"</p>\n")
}

// abort ends an answer that has begun without its end, as uvicorn does
// when a streaming handler raises: the client sees the stream break.
func abort(w http.ResponseWriter) {
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}
