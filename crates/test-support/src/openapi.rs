//! Checking a service's OpenAPI document against its URL map and its running app: the
//! pieces both services' `openapi` tests share.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::app::Http;

/// The HTTP methods a document or URL map may list, lower case.
pub const METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

/// `(path, method)` of every `web::resource("...").route(web::METHOD()...)` in `url_map`
/// (the source of a service's `configure` function).
pub fn routes_in_url_map(url_map: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for block in url_map.split("web::resource(\"").skip(1) {
        let path = &block[..block.find('"').expect("closing quote of the path")];
        for method in METHODS {
            if block.contains(&format!(".route(web::{method}()")) {
                out.insert((path.to_owned(), method.to_owned()));
            }
        }
    }
    out
}

/// `GET /openapi.json`, asserted to be a 200 with `application/json`.
pub async fn document(app: &Http) -> Value {
    let res = app.get("/openapi.json").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    res.json().await.expect("the document is JSON")
}

/// Documented `(path, method)` operations, POSTs first (so that a GET showing what a POST
/// made has something to show), then in document order within each method.
pub fn operations(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for method in ["post", "get", "put", "delete", "patch"] {
        for (path, item) in doc["paths"].as_object().expect("paths") {
            if item.get(method).is_some() {
                out.push((path.clone(), method.to_owned()));
            }
        }
    }
    out
}

/// The path with each path parameter replaced by the first value of its enum, else its example.
pub fn concrete(doc: &Value, path: &str, method: &str) -> String {
    let mut out = path.to_owned();
    if let Some(params) = doc["paths"][path][method]["parameters"].as_array() {
        for p in params.iter().filter(|p| p["in"] == "path") {
            let name = p["name"].as_str().expect("a parameter name");
            let value = p["schema"]["enum"][0]
                .as_str()
                .or_else(|| p["example"].as_str())
                .expect("a path enum or example");
            out = out.replace(&format!("{{{name}}}"), value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_url_map_parser_finds_each_route_and_method() {
        let source = r#"cfg.service(web::resource("/a").route(web::get().to(a)).route(web::post().to(b)))
            .service(web::resource("/b/{id}").route(web::delete().to(c)));"#;
        let routes = routes_in_url_map(source);
        let expected: BTreeSet<(String, String)> =
            [("/a", "get"), ("/a", "post"), ("/b/{id}", "delete")]
                .into_iter()
                .map(|(p, m)| (p.to_owned(), m.to_owned()))
                .collect();
        assert_eq!(routes, expected);
    }

    #[test]
    fn operations_put_posts_first_and_paths_get_their_first_enum_value() {
        let doc = json!({"paths": {
            "/x": {"get": {}},
            "/y/{suite}": {"post": {"parameters": [
                {"in": "path", "name": "suite", "schema": {"enum": ["basic", "full"]}}]}}
        }});
        assert_eq!(
            operations(&doc),
            vec![
                ("/y/{suite}".to_owned(), "post".to_owned()),
                ("/x".to_owned(), "get".to_owned())
            ]
        );
        assert_eq!(concrete(&doc, "/y/{suite}", "post"), "/y/basic");
        assert_eq!(concrete(&doc, "/x", "get"), "/x");
    }
}
