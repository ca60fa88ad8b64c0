//! Decoding node-bound events into [`Inbound`] values. An invoke for
//! another node is ignored; one whose params cannot be decoded is answered
//! here with `INVALID_REQUEST` and never handed on, so the handler only ever
//! sees a well-formed request.

use serde_json::Value;

use super::{Inbound, Invoke, WireError};

/// What to do with one node-bound event.
#[derive(Debug, PartialEq)]
pub enum Decoded {
    /// Hand it to the node.
    Deliver(Inbound),
    /// Answer invoke `id` with this error ourselves.
    Reject {
        /// The invoke id.
        id: String,
        /// The error to send back.
        error: WireError,
    },
    /// Addressed to another node (or to none).
    NotOurs {
        /// The `nodeId` it carried.
        node_id: String,
    },
    /// Cannot even be answered (no invoke id).
    Malformed(&'static str),
}

/// `node.invoke.request`.
pub fn invoke_request(payload: &Value, our_id: &str) -> Decoded {
    let Some(id) = text(payload, "id") else {
        return Decoded::Malformed("node.invoke.request without an id");
    };
    let node_id = text(payload, "nodeId").unwrap_or_default();
    if node_id != our_id {
        return Decoded::NotOurs { node_id };
    }
    let reject = |message: String| Decoded::Reject {
        id: id.clone(),
        error: WireError {
            code: "INVALID_REQUEST".to_owned(),
            message,
        },
    };
    let Some(command) = text(payload, "command").filter(|c| !c.is_empty()) else {
        return reject("command required".to_owned());
    };
    let params = match payload.get("paramsJSON") {
        Some(Value::String(raw)) if !raw.is_empty() => match serde_json::from_str(raw) {
            Ok(params) => params,
            Err(e) => return reject(format!("paramsJSON malformed JSON: {e}")),
        },
        _ => match payload.get("params") {
            Some(params) if !params.is_null() => params.clone(),
            _ => return reject("paramsJSON required".to_owned()),
        },
    };
    Decoded::Deliver(Inbound::Invoke(Invoke {
        id: id.clone(),
        command,
        params,
        timeout_ms: payload.get("timeoutMs").and_then(millis),
        idempotency_key: text(payload, "idempotencyKey"),
        session_key: text(payload, "sessionKey"),
    }))
}

/// `node.invoke.cancel {invokeId, nodeId}`.
pub fn invoke_cancel(payload: &Value, our_id: &str) -> Decoded {
    let Some(invoke_id) = text(payload, "invokeId").or_else(|| text(payload, "id")) else {
        return Decoded::Malformed("node.invoke.cancel without an invokeId");
    };
    let node_id = text(payload, "nodeId").unwrap_or_default();
    if node_id != our_id {
        return Decoded::NotOurs { node_id };
    }
    Decoded::Deliver(Inbound::Cancel { invoke_id })
}

fn text(payload: &Value, key: &str) -> Option<String> {
    payload.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// A non-negative millisecond count, integral or not.
fn millis(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.is_finite() && *f >= 0.0)
            .map(|f| f as u64)
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn invalid(id: &str, message: &str) -> Decoded {
        Decoded::Reject {
            id: id.to_owned(),
            error: WireError {
                code: "INVALID_REQUEST".to_owned(),
                message: message.to_owned(),
            },
        }
    }

    #[test]
    fn decodes_params_json_or_params() {
        let from_json = invoke_request(
            &json!({"id":"i1","nodeId":"me","command":"system.which","paramsJSON":"{\"bins\":[\"ls\"]}",
                    "timeoutMs":1500,"idempotencyKey":"k","sessionKey":"s"}),
            "me",
        );
        assert_eq!(
            from_json,
            Decoded::Deliver(Inbound::Invoke(Invoke {
                id: "i1".to_owned(),
                command: "system.which".to_owned(),
                params: json!({"bins":["ls"]}),
                timeout_ms: Some(1500),
                idempotency_key: Some("k".to_owned()),
                session_key: Some("s".to_owned()),
            }))
        );
        let from_object = invoke_request(
            &json!({"id":"i2","nodeId":"me","command":"c","paramsJSON":null,"params":{"a":1}}),
            "me",
        );
        assert!(
            matches!(from_object, Decoded::Deliver(Inbound::Invoke(Invoke { ref params, .. })) if params == &json!({"a":1}))
        );
    }

    #[test]
    fn undecodable_params_are_answered_not_handed_on() {
        assert_eq!(
            invoke_request(&json!({"id":"i","nodeId":"me","command":"c"}), "me"),
            invalid("i", "paramsJSON required")
        );
        let bad = invoke_request(
            &json!({"id":"i","nodeId":"me","command":"c","paramsJSON":"{"}),
            "me",
        );
        assert!(
            matches!(bad, Decoded::Reject { ref error, .. } if error.message.starts_with("paramsJSON malformed JSON")),
            "{bad:?}"
        );
        assert_eq!(
            invoke_request(&json!({"id":"i","nodeId":"me","paramsJSON":"{}"}), "me"),
            invalid("i", "command required")
        );
    }

    #[test]
    fn invokes_for_another_node_are_not_ours() {
        let other = json!({"id":"i","nodeId":"them","command":"c","paramsJSON":"{}"});
        assert_eq!(
            invoke_request(&other, "me"),
            Decoded::NotOurs {
                node_id: "them".to_owned()
            }
        );
        let none = json!({"id":"i","command":"c","paramsJSON":"{}"});
        assert_eq!(
            invoke_request(&none, "me"),
            Decoded::NotOurs {
                node_id: String::new()
            }
        );
        let cancel = json!({"invokeId":"i","nodeId":"them"});
        assert_eq!(
            invoke_cancel(&cancel, "me"),
            Decoded::NotOurs {
                node_id: "them".to_owned()
            }
        );
        assert_eq!(
            invoke_cancel(&json!({"invokeId":"i","nodeId":"me"}), "me"),
            Decoded::Deliver(Inbound::Cancel {
                invoke_id: "i".to_owned()
            })
        );
    }
}
