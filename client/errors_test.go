package client

import (
	"errors"
	"testing"
	"time"
)

// TestRefusalsAreErrors reads refusals of a real node as *Error.
func TestRefusalsAreErrors(t *testing.T) {
	n, c := startNode(t, nil)
	ctx := ctxFor(t, time.Minute)
	if _, err := c.Templates.CopyStarter(ctx, "invoice", CopyStarterRequest{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                string
		err                 error
		status              int
		code, field, prefix string
	}{
		{name: "data against the schema", status: 422, code: CodePayloadValidationFailed, field: "customer", err: func() error {
			_, err := c.Documents.Create(ctx, DocumentRequest{TemplateID: "invoice", Data: map[string]any{}})
			return err
		}()},
		{name: "a taken slug", status: 409, code: CodeConflict, field: "slug", err: func() error {
			_, err := c.Templates.Create(ctx, CreateTemplateRequest{Name: "again", Slug: "invoice"})
			return err
		}()},
		{name: "a bad key", status: 401, code: CodeUnauthenticated, err: func() error {
			_, err := New(n.URL, "plt_wrong").Wallet.Get(ctx)
			return err
		}()},
		{name: "an unknown document", status: 404, code: CodeNotFound, err: func() error {
			_, err := c.Documents.Get(ctx, "doc_01m862m8m695ydkqp9yn0zss73")
			return err
		}()},
		{name: "a limit out of range", status: 400, code: CodeInvalidRequest, field: "limit", err: func() error {
			_, err := c.Documents.List(ctx, ListDocumentsParams{Limit: 1000})
			return err
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var e *Error
			if !errors.As(tc.err, &e) {
				t.Fatalf("err = %v, not an *Error", tc.err)
			}
			if e.Status != tc.status || e.Code != tc.code || e.Field != tc.field || e.Message == "" || e.RequestID == "" {
				t.Fatalf("got %#v", e)
			}
			if tc.code == CodePayloadValidationFailed && (len(e.Violations) < 2 || e.Violations[0].Field != e.Field || e.Violations[1].Message == "") {
				t.Fatalf("empty data breaks the invoice's schema in several places; violations = %+v", e.Violations)
			}
		})
	}
}

func TestABadBaseURLIsReportedByEachCall(t *testing.T) {
	_, err := New("platen.example", "plt_x").Wallet.Get(t.Context())
	if err == nil {
		t.Fatal("no error")
	}
}
