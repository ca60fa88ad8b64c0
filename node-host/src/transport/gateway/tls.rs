//! The TLS client for `wss://`: rustls with the ring provider, trusting
//! either the system roots (chain and host name checked) or exactly one
//! pinned certificate (sha256 of its DER; chain and name not checked, the
//! handshake signature still is). Nothing else is accepted.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use sha2::{Digest as _, Sha256};

use super::endpoint::TlsTrust;
use super::error::GatewayError;

/// Builds the client configuration for `trust`.
pub fn client_config(trust: &TlsTrust) -> Result<Arc<ClientConfig>, GatewayError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| GatewayError::Tls(e.to_string()))?;
    let config = match trust {
        TlsTrust::SystemRoots => builder
            .with_root_certificates(system_roots()?)
            .with_no_client_auth(),
        TlsTrust::Pinned(pin) => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(PinnedCertificate {
                pin: *pin,
                provider,
            }))
            .with_no_client_auth(),
    };
    Ok(Arc::new(config))
}

fn system_roots() -> Result<RootCertStore, GatewayError> {
    let found = rustls_native_certs::load_native_certs();
    for error in &found.errors {
        tracing::warn!(%error, "skipping unreadable system root certificates");
    }
    let mut roots = RootCertStore::empty();
    let (added, _ignored) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        return Err(GatewayError::Tls(
            "no system root certificates found\nhint: install the ca-certificates package, or pin the gateway's certificate with --tls-pin".to_owned(),
        ));
    }
    Ok(roots)
}

/// Accepts exactly the server certificate whose DER hashes to `pin`.
#[derive(Debug)]
struct PinnedCertificate {
    pin: [u8; 32],
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for PinnedCertificate {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen: [u8; 32] = Sha256::digest(end_entity.as_ref()).into();
        if seen == self.pin {
            Ok(ServerCertVerified::assertion())
        } else {
            tracing::error!(
                expected = %hex::encode(self.pin),
                presented = %hex::encode(seen),
                "the gateway's certificate does not match --tls-pin"
            );
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verifier(pin: [u8; 32]) -> PinnedCertificate {
        PinnedCertificate {
            pin,
            provider: Arc::new(rustls::crypto::ring::default_provider()),
        }
    }

    fn check(v: &PinnedCertificate, der: &[u8]) -> Result<ServerCertVerified, rustls::Error> {
        let name = ServerName::try_from("gw.example.com").unwrap();
        v.verify_server_cert(
            &CertificateDer::from(der.to_vec()),
            &[],
            &name,
            &[],
            UnixTime::now(),
        )
    }

    #[test]
    fn the_pinned_certificate_is_accepted_and_any_other_refused() {
        let der = b"certificate bytes".as_slice();
        let pin: [u8; 32] = Sha256::digest(der).into();
        let v = verifier(pin);
        assert!(check(&v, der).is_ok());
        assert!(check(&v, b"another certificate").is_err());
    }

    #[test]
    fn both_trust_modes_build_a_config() {
        assert!(client_config(&TlsTrust::Pinned([1; 32])).is_ok());
    }
}
