//go:build !race

package tcontract_test

const raceEnabled = false
