//! A panicking handler becomes the service's 500 body instead of a dropped connection.

use actix_web::middleware::from_fn;
use actix_web::{App, HttpResponse, ResponseError, test, web};
use service_kit::panic::{Panic, catch_panic};

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Boom(String);

impl From<Panic> for Boom {
    fn from(p: Panic) -> Self {
        Boom(format!("{} panicked: {}", p.path, p.message))
    }
}

impl ResponseError for Boom {
    fn error_response(&self) -> HttpResponse {
        HttpResponse::InternalServerError().json(serde_json::json!({ "error": self.0 }))
    }
}

async fn explode() -> HttpResponse {
    panic!("kaboom")
}

#[actix_web::test]
async fn panic_is_answered_with_the_services_body() {
    let app = test::init_service(
        App::new()
            .route("/explode", web::get().to(explode))
            .route("/fine", web::get().to(HttpResponse::Ok))
            .wrap(from_fn(catch_panic::<Boom, _>)),
    )
    .await;
    let err = test::try_call_service(&app, test::TestRequest::get().uri("/explode").to_request())
        .await
        .expect_err("the panic becomes an error");
    let res = err.error_response();
    assert_eq!(res.status(), 500);
    let bytes = actix_web::body::to_bytes(res.into_body()).await.unwrap();
    let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"error": "/explode panicked: kaboom"})
    );

    let res = test::call_service(&app, test::TestRequest::get().uri("/fine").to_request()).await;
    assert_eq!(res.status(), 200);
}
